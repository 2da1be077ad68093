import { ROBOTS_PER_GROUP_MAX, type GroupRobot } from '@sparrow/protocol';
import { RightOutline } from 'antd-mobile-icons';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../../api';
import { Avatar } from '../../../components/Avatar';
import { AvatarUploadCell } from '../../../components/AvatarUploadCell';
import { ActionCell, Cell, CellGroup } from '../../../components/Cell';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { feedback } from '../../../components/feedback';
import { Page } from '../../../components/Page';
import { SecretBox } from '../../../components/SecretBox';
import { useConfirmedAction } from '../../../components/use-confirmed-action';
import { GroupPending } from '../../../components/group/GroupPending';
import { useCloseWhenGone, useGroupIdParam } from '../../../components/group/hooks';
import { NameForm } from '../../../components/robots/NameForm';
import { useGroupRobots, withRobot } from '../../../components/robots/use-robots';
import { formatDateTime } from '../../../lib/relative-time';
import { useBackTo } from '../../../nav/navigation';
import { groupPath, paths, withQuery } from '../../../nav/paths';
import { myRole, useGroup } from '../../../stores/group';
import { groupPermissions } from '../../../stores/group-rules';
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
      label={t('robots.name')}
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
      label={t('robots.name')}
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
  const upload = async (file: File) => {
    const body = new FormData();
    // The server reads robot_id before it accepts the file's bytes, so it goes first.
    body.append('robot_id', String(robot.id));
    body.append('file', file);
    onChanged(await api.uploadRobotAvatar(body, { loading: true, quiet: true }));
  };
  return (
    <AvatarUploadCell
      title={t('robots.avatar')}
      avatar={
        <Avatar src={robot.avatar} name={robot.name} alt={t('robots.avatarOf', { name: robot.name })} size={44} />
      }
      changeLabel={t('robots.changeAvatar')}
      upload={upload}
      updatedText={t('robots.avatarUpdated')}
    />
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
  const { busy, run } = useConfirmedAction();
  const url = robot.url ?? '';
  const changed = (next: GroupRobot) => robots.setData((list) => withRobot(list, next));

  const handleReset = () =>
    run({ title: t('robots.resetTitle'), content: t('robots.resetBody'), confirmText: t('robots.reset') }, async () => {
      changed(await api.groupRobotReset({ robot_id: robot.id }, { loading: true, quiet: true }));
      feedback.toast(t('robots.resetDone'));
    });
  const handleRemove = () =>
    run(
      {
        title: t('robots.removeTitle'),
        content: t('robots.removeBody', { name: robot.name }),
        confirmText: t('robots.removeShort'),
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
        <SecretBox value={url} copyLabel={t('robots.copy')} className="robot-url" />
        <p className="form-note">{t('robots.webhookNote')}</p>
        <p className="form-note">{t('robots.usage')}</p>
        <SecretBox value={curlExample(url, t('robots.exampleText'))} command className="robot-usage" />
      </section>
      <CellGroup>
        <ActionCell disabled={busy} onClick={() => void handleReset()}>
          {t('robots.reset')}
        </ActionCell>
      </CellGroup>
      <CellGroup>
        <ActionCell danger disabled={busy} onClick={() => void handleRemove()}>
          {t('robots.remove')}
        </ActionCell>
      </CellGroup>
    </Page>
  );
}

/** A robot the list does not have (removed, or another group's), or the list that could not be read. */
function RobotMissing({ groupId, robots }: { groupId: string; robots: Robots }) {
  const { t } = useTranslation();
  const back = useBackTo(groupPath('robots', groupId));
  return (
    <Page title={t('robots.detail')} onBack={back}>
      {robots.status === 'error' ? (
        <div className="actions">
          <p className="form-note">{t('robots.loadFailed')}</p>
          <button type="button" className="button" onClick={() => void robots.reload()}>
            {t('common.retry')}
          </button>
        </div>
      ) : (
        <p className="form-note">{t('robots.notFound')}</p>
      )}
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
    if (robot) return <RobotDetail key={robot.id} groupId={groupId} robot={robot} robots={robots} />;
    if (robots.status !== 'loading') return <RobotMissing groupId={groupId} robots={robots} />;
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
  const manager = groupPermissions(myRole(entry), info.setting).manage;
  // Read again when my role changes: only the owner and administrators are sent the webhooks.
  return <RobotsView key={manager ? 'manager' : 'member'} groupId={id} manager={manager} />;
}
