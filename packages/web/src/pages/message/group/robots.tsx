import { ROBOT_NAME_MAX, ROBOTS_PER_GROUP_MAX, withinGraphemes, type GroupRobot } from '@sparrow/protocol';
import { RightOutline } from 'antd-mobile-icons';
import { useId, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../../api';
import { Avatar } from '../../../components/Avatar';
import { Cell, CellGroup } from '../../../components/Cell';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { feedback } from '../../../components/feedback';
import { Field } from '../../../components/Field';
import { Page } from '../../../components/Page';
import { GroupPending } from '../../../components/group/GroupPending';
import { useCloseWhenGone, useGroupIdParam } from '../../../components/group/hooks';
import { useGroupRobots, withRobot } from '../../../components/robots/use-robots';
import { copyText } from '../../../lib/clipboard';
import { formatDateTime } from '../../../lib/relative-time';
import { useForm } from '../../../lib/use-form';
import { useBackTo } from '../../../nav/navigation';
import { groupPath, paths, withQuery } from '../../../nav/paths';
import { myRole, useGroup } from '../../../stores/group';
import { groupPermissions } from '../../../stores/group-rules';
import '../../../components/group/group.css';
import './robots.css';

type Robots = ReturnType<typeof useGroupRobots>;

/** The page of one robot of a group, or of its name being edited. */
const robotPath = (groupId: string, robot: GroupRobot, more: Record<string, string> = {}) =>
  groupPath('robots', groupId, { robot: String(robot.id), ...more });

/** 上次使用 … or 尚未使用. */
function useLastUsed(): (robot: GroupRobot) => string {
  const { t, i18n } = useTranslation();
  return (robot) =>
    robot.last_used
      ? t('robots.lastUsed', { time: formatDateTime(robot.last_used, i18n.language) })
      : t('robots.neverUsed');
}

/** One robot of the list: its picture, name and last post; for managers a link to its page. */
function RobotRow({ groupId, robot, manager }: { groupId: string; robot: GroupRobot; manager: boolean }) {
  const lastUsed = useLastUsed();
  const body = (
    <>
      <Avatar src={robot.avatar} name={robot.name} alt="" size={40} />
      <span className="robot-text">
        <span className="robot-name">{robot.name}</span>
        <span className="robot-when">{lastUsed(robot)}</span>
      </span>
    </>
  );
  return (
    <li>
      {manager ? (
        <Link className="robot-row cell-action" to={robotPath(groupId, robot)}>
          {body}
          <RightOutline className="cell-arrow" aria-hidden="true" />
        </Link>
      ) : (
        <div className="robot-row">{body}</div>
      )}
    </li>
  );
}

/** The group's robots; its owner and administrators add one here and open each. */
function RobotList({ groupId, manager, robots }: { groupId: string; manager: boolean; robots: Robots }) {
  const { t } = useTranslation();
  const back = useBackTo(withQuery(paths.chatDetail, { id: groupId }));
  const navigate = useNavigate();
  const { data: list, status } = robots;
  const full = (list?.length ?? 0) >= ROBOTS_PER_GROUP_MAX;
  return (
    <Page title={t('robots.title')} onBack={back}>
      <p className="form-note">{manager ? t('robots.intro') : t('robots.introMember')}</p>
      {status === 'error' && (
        <p className="form-note" role="alert">
          {t('robots.loadFailed')}
        </p>
      )}
      {!list && status === 'loading' && <DelayedSpinner />}
      {list && list.length === 0 && <p className="form-note">{t('robots.empty')}</p>}
      {list && list.length > 0 && (
        <ul className="cells" aria-label={t('robots.listLabel')}>
          {list.map((robot) => (
            <RobotRow key={robot.id} groupId={groupId} robot={robot} manager={manager} />
          ))}
        </ul>
      )}
      {manager && list && (
        <div className="actions">
          {full && <p className="form-note robot-full">{t('robots.full', { max: ROBOTS_PER_GROUP_MAX })}</p>}
          <button
            type="button"
            className="button button-primary"
            disabled={full}
            onClick={() => void navigate(groupPath('robots', groupId, { add: '1' }))}
          >
            {t('robots.add')}
          </button>
        </div>
      )}
    </Page>
  );
}

interface NameFormProps {
  title: string;
  initial: string;
  submitText: string;
  note?: string;
  onBack: () => void;
  onSubmit: (name: string) => Promise<void>;
}

/** A robot's name, for adding one or renaming it. */
function NameForm({ title, initial, submitText, note, onBack, onSubmit }: NameFormProps) {
  const { t } = useTranslation();
  const form = useForm({ name: initial }, ({ name }) => ({
    name: !name.trim()
      ? { key: 'robots.nameRequired' }
      : !withinGraphemes(name.trim(), ROBOT_NAME_MAX)
        ? { key: 'robots.nameTooLong', params: { max: ROBOT_NAME_MAX } }
        : null,
  }));
  const handleSubmit = form.submit(({ name }) => onSubmit(name.trim()));
  return (
    <Page title={title} onBack={onBack}>
      <form onSubmit={(e) => void handleSubmit(e)} noValidate>
        {note && <p className="form-note">{note}</p>}
        <div className="form cell-group">
          <Field
            label={t('robots.name')}
            maxLength={ROBOT_NAME_MAX * 2}
            autoFocus
            name="name"
            autoComplete="off"
            {...form.bind('name')}
          />
        </div>
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={form.busy}>
            {submitText}
          </button>
        </div>
      </form>
    </Page>
  );
}

/** 添加机器人: a name; then the new robot's page, with its webhook. */
function AddRobot({ groupId, robots }: { groupId: string; robots: Robots }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const back = useBackTo(groupPath('robots', groupId));
  const handleAdd = async (name: string) => {
    const robot = await api.groupRobotAdd({ group_id: groupId, name }, { loading: true, quiet: true });
    robots.setData((list) => withRobot(list, robot));
    void navigate(robotPath(groupId, robot), { replace: true });
  };
  return (
    <NameForm
      title={t('robots.add')}
      initial=""
      submitText={t('robots.addSubmit')}
      note={t('robots.addNote')}
      onBack={back}
      onSubmit={handleAdd}
    />
  );
}

function RenameRobot({ groupId, robot, robots }: { groupId: string; robot: GroupRobot; robots: Robots }) {
  const { t } = useTranslation();
  const back = useBackTo(robotPath(groupId, robot));
  const handleRename = async (name: string) => {
    const next = await api.groupRobotEdit({ robot_id: robot.id, name }, { loading: true, quiet: true });
    robots.setData((list) => withRobot(list, next));
    back();
  };
  return (
    <NameForm
      title={t('robots.editName')}
      initial={robot.name}
      submitText={t('common.save')}
      onBack={back}
      onSubmit={handleRename}
    />
  );
}

/** The robot's picture, tapped to choose another. */
function AvatarCell({ robot, onChanged }: { robot: GroupRobot; onChanged: (robot: GroupRobot) => void }) {
  const { t } = useTranslation();
  const handleFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      feedback.toast(t('robots.avatarType'));
      return;
    }
    const body = new FormData();
    // The server reads robot_id before it accepts the file's bytes, so it goes first.
    body.append('robot_id', String(robot.id));
    body.append('file', file);
    try {
      onChanged(await api.uploadRobotAvatar(body, { loading: true, quiet: true }));
      feedback.toast(t('robots.avatarUpdated'));
    } catch {
      // The request layer has shown why.
    }
  };
  return (
    <li className="avatar-upload">
      <label className="cell cell-action">
        <span className="cell-title">{t('robots.avatar')}</span>
        <Avatar src={robot.avatar} name={robot.name} alt={t('robots.avatarOf', { name: robot.name })} size={44} />
        <RightOutline className="cell-arrow" aria-hidden="true" />
        <input
          type="file"
          accept="image/*"
          aria-label={t('robots.changeAvatar')}
          onChange={(e) => void handleFile(e)}
        />
      </label>
    </li>
  );
}

/** The curl command that posts WeCom's text message to a webhook. */
function curlExample(url: string, text: string): string {
  const body = JSON.stringify({ msgtype: 'text', text: { content: text } });
  return `curl '${url}' \\\n  -H 'Content-Type: application/json' \\\n  -d '${body.replace(/'/g, `'\\''`)}'`;
}

/** 群机器人 → one robot (owner and administrators): picture, name, the webhook with its use, reset and remove. */
function RobotDetail({ groupId, robot, robots }: { groupId: string; robot: GroupRobot; robots: Robots }) {
  const { t, i18n } = useTranslation();
  const back = useBackTo(groupPath('robots', groupId));
  const lastUsed = useLastUsed();
  const webhookId = useId();
  const [busy, setBusy] = useState(false);
  const url = robot.url ?? '';
  const changed = (next: GroupRobot) => robots.setData((list) => withRobot(list, next));

  const handleCopy = async () => {
    feedback.toast((await copyText(url)) ? t('robots.copied') : t('robots.copyFailed'));
  };
  const act = async (
    ask: { title: string; content: string; confirmText: string; danger?: boolean },
    action: () => Promise<void>,
  ) => {
    const ok = await feedback.confirm({ ...ask, cancelText: t('common.cancel') });
    if (!ok) return;
    setBusy(true);
    try {
      await action();
    } catch {
      // The request layer has shown the server's reason.
    } finally {
      setBusy(false);
    }
  };
  const handleReset = () =>
    act(
      { title: t('robots.resetTitle'), content: t('robots.resetBody'), confirmText: t('robots.reset'), danger: true },
      async () => {
        changed(await api.groupRobotReset({ robot_id: robot.id }, { loading: true, quiet: true }));
        feedback.toast(t('robots.resetDone'));
      },
    );
  const handleRemove = () =>
    act(
      {
        title: t('robots.removeTitle'),
        content: t('robots.removeBody', { name: robot.name }),
        confirmText: t('robots.removeShort'),
        danger: true,
      },
      async () => {
        await api.groupRobotRemove({ robot_id: robot.id }, { loading: true, quiet: true });
        robots.setData((list) => (list ?? []).filter((r) => r.id !== robot.id));
        feedback.toast(t('robots.removed'));
        back();
      },
    );

  return (
    <Page title={t('robots.detail')} onBack={back}>
      <CellGroup>
        <AvatarCell robot={robot} onChanged={changed} />
        <Cell title={t('robots.name')} value={robot.name} to={robotPath(groupId, robot, { edit: 'name' })} />
      </CellGroup>
      <p className="form-note">
        {t('robots.added', { time: formatDateTime(robot.create_time, i18n.language) })}
        {' · '}
        {lastUsed(robot)}
      </p>
      <section className="robot-webhook" aria-labelledby={webhookId}>
        <h2 className="cell-group-title" id={webhookId}>
          {t('robots.webhook')}
        </h2>
        <p className="robot-url">
          <code>{url}</code>
        </p>
        <div className="robot-url-actions">
          <button type="button" className="button button-default" onClick={() => void handleCopy()}>
            {t('robots.copy')}
          </button>
        </div>
        <p className="form-note">{t('robots.webhookNote')}</p>
        <p className="form-note">{t('robots.usage')}</p>
        <pre className="robot-usage">{curlExample(url, t('robots.exampleText'))}</pre>
      </section>
      <CellGroup>
        <li>
          <button
            type="button"
            className="cell cell-action gm-cell-center"
            disabled={busy}
            onClick={() => void handleReset()}
          >
            {t('robots.reset')}
          </button>
        </li>
      </CellGroup>
      <CellGroup>
        <li>
          <button
            type="button"
            className="cell cell-action gm-cell-center gm-cell-danger"
            disabled={busy}
            onClick={() => void handleRemove()}
          >
            {t('robots.remove')}
          </button>
        </li>
      </CellGroup>
    </Page>
  );
}

/** A robot the list does not have (removed, or another group's). */
function RobotMissing({ groupId }: { groupId: string }) {
  const { t } = useTranslation();
  const back = useBackTo(groupPath('robots', groupId));
  return (
    <Page title={t('robots.detail')} onBack={back}>
      <p className="form-note">{t('robots.notFound')}</p>
    </Page>
  );
}

/** The group's robots and, by `add`, `robot` and `edit`, their sub-views; members see the list only. */
function RobotsView({ groupId, manager }: { groupId: string; manager: boolean }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const robots = useGroupRobots(groupId);
  const robotId = Number(params.get('robot'));
  if (manager && params.get('add') === '1') return <AddRobot groupId={groupId} robots={robots} />;
  if (manager && robotId > 0) {
    const robot = robots.data?.find((r) => r.id === robotId);
    if (robot && params.get('edit') === 'name') return <RenameRobot groupId={groupId} robot={robot} robots={robots} />;
    if (robot) return <RobotDetail groupId={groupId} robot={robot} robots={robots} />;
    if (robots.status !== 'loading') return <RobotMissing groupId={groupId} />;
    return (
      <Page title={t('robots.detail')}>
        <DelayedSpinner />
      </Page>
    );
  }
  return <RobotList groupId={groupId} manager={manager} robots={robots} />;
}

/**
 * 群机器人 (`/pages/message/group/robots?id=group-N`), from the group's info page: every member sees
 * the group's robots; its owner and administrators add them and, with `robot`, open one: its
 * webhook (WeCom's group-robot messages), reset or removed. Closes when the group goes away for me.
 */
export default function GroupRobotsPage() {
  const { t } = useTranslation();
  const id = useGroupIdParam();
  const entry = useGroup(id);
  useCloseWhenGone(entry);
  const info = entry?.info;
  if (!id || !entry || !info) return <GroupPending id={id} title={t('robots.title')} entry={entry} />;
  return <RobotsView groupId={id} manager={groupPermissions(myRole(entry), info.setting).manage} />;
}
