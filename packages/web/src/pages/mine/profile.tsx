import type { UserInfo } from '@sparrow/protocol';
import { SystemQRcodeOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../api';
import { Avatar } from '../../components/Avatar';
import { AvatarUploadCell } from '../../components/AvatarUploadCell';
import { Cell, CellGroup, OptionList } from '../../components/Cell';
import { Field } from '../../components/Field';
import { Page } from '../../components/Page';
import type { MessageKey } from '../../i18n/keys';
import { useForm } from '../../lib/use-form';
import { checkMotto, checkOptionalEmail, checkPatSuffix, checkRealname, type Problem } from '../../lib/validation';
import { useBackTo } from '../../nav/navigation';
import { paths, qrPaths } from '../../nav/paths';
import { useConfig } from '../../stores/config';
import { session, useSession } from '../../stores/session';

const SEXES = [1, 0, 2] as const;
const sexKey = (sex: 0 | 1 | 2): MessageKey => `profile.sex${sex}`;

type TextEdit = 'name' | 'motto' | 'email' | 'patSuffix';

const textEdits: Record<
  TextEdit,
  {
    title: MessageKey;
    label: MessageKey;
    field: 'realname' | 'motto' | 'email' | 'pat_suffix';
    check: (v: string) => Problem;
    placeholder?: MessageKey;
    hint?: MessageKey;
    type?: string;
  }
> = {
  name: { title: 'profile.editName', label: 'profile.name', field: 'realname', check: checkRealname },
  motto: {
    title: 'profile.editMotto',
    label: 'profile.motto',
    field: 'motto',
    check: checkMotto,
    placeholder: 'profile.mottoPlaceholder',
  },
  patSuffix: {
    title: 'pat.editSuffix',
    label: 'pat.suffix',
    field: 'pat_suffix',
    check: checkPatSuffix,
    placeholder: 'pat.suffixPlaceholder',
    hint: 'pat.suffixHint',
  },
  email: {
    title: 'profile.editEmail',
    label: 'profile.email',
    field: 'email',
    check: checkOptionalEmail,
    placeholder: 'profile.emailPlaceholder',
    hint: 'profile.emailHint',
    type: 'email',
  },
};

async function save(patch: Parameters<typeof api.updateUserInfo>[0]): Promise<void> {
  session.setUser(await api.updateUserInfo(patch, { loading: true }));
}

function TextEditor({ edit, user }: { edit: TextEdit; user: UserInfo }) {
  const { t } = useTranslation();
  const back = useBackTo(paths.profile);
  const spec = textEdits[edit];
  const form = useForm({ value: user[spec.field] ?? '' }, (v) => ({ value: spec.check(v.value) }));
  const handleSubmit = form.submit(async ({ value }) => {
    await save({ [spec.field]: value.trim() });
    back();
  });
  return (
    <Page title={t(spec.title)} onBack={back}>
      <form onSubmit={(e) => void handleSubmit(e)} noValidate>
        <div className="form cell-group">
          <Field
            label={t(spec.label)}
            type={spec.type ?? 'text'}
            placeholder={spec.placeholder ? t(spec.placeholder) : undefined}
            hint={spec.hint ? t(spec.hint) : undefined}
            autoFocus
            {...form.bind('value')}
          />
        </div>
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={form.busy}>
            {t('common.save')}
          </button>
        </div>
      </form>
    </Page>
  );
}

function SexEditor({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const back = useBackTo(paths.profile);
  const [sex, setSex] = useState<0 | 1 | 2>(user.sex);
  const [busy, setBusy] = useState(false);
  const handleSave = async () => {
    setBusy(true);
    try {
      await save({ sex });
      back();
    } catch {
      // The request layer has shown why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Page title={t('profile.editSex')} onBack={back}>
      <OptionList
        legend={t('profile.sex')}
        name="sex"
        options={SEXES}
        value={sex}
        label={(value) => t(sexKey(value))}
        onChange={setSex}
      />
      <div className="actions">
        <button type="button" className="button button-primary" disabled={busy} onClick={() => void handleSave()}>
          {t('common.save')}
        </button>
      </div>
    </Page>
  );
}

function AvatarRow({ user, name }: { user: UserInfo; name: string }) {
  const { t } = useTranslation();
  const upload = async (file: File) => {
    const body = new FormData();
    body.append('file', file);
    session.patchUser({ avatar: await api.uploadAvatar(body, { loading: true, quiet: true }) });
  };
  return (
    <AvatarUploadCell
      title={t('profile.avatar')}
      avatar={<Avatar src={user.avatar} name={name} alt={t('me.avatarOf', { name })} size={56} />}
      changeLabel={t('profile.changeAvatar')}
      upload={upload}
      updatedText={t('profile.avatarUpdated')}
    />
  );
}

/** Personal info: avatar upload, name (when sysInfo.diyName allows), motto, pat suffix, gender, email. */
export default function ProfilePage() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const canRename = useConfig((s) => s.config?.sysInfo.diyName ?? 1) === 1;
  const [params] = useSearchParams();
  const edit = params.get('edit');

  if (!user) return null;
  if (edit === 'sex') return <SexEditor user={user} />;
  if ((edit === 'name' && canRename) || edit === 'motto' || edit === 'email' || edit === 'patSuffix') {
    return <TextEditor edit={edit} user={user} />;
  }

  const name = user.realname || user.displayName || user.account;
  const editPath = (what: string) => `${paths.profile}?edit=${what}`;
  const notSet = t('common.notSet');
  return (
    <Page title={t('routes.profile')}>
      <CellGroup>
        <AvatarRow user={user} name={name} />
        {canRename ? (
          <Cell title={t('profile.name')} value={name} to={editPath('name')} />
        ) : (
          <Cell title={t('profile.name')} value={name} />
        )}
        <Cell title={t('profile.account')} value={user.account} />
        <Cell
          title={t('qr.entry.mine')}
          to={qrPaths.mycode}
          extra={<SystemQRcodeOutline className="cell-extra-icon" aria-hidden="true" />}
        />
      </CellGroup>
      {!canRename && <p className="form-note">{t('profile.nameLocked')}</p>}
      <CellGroup>
        <Cell title={t('profile.motto')} value={user.motto || notSet} to={editPath('motto')} />
        <Cell title={t('pat.suffix')} value={user.pat_suffix || notSet} to={editPath('patSuffix')} />
        <Cell title={t('profile.sex')} value={t(sexKey(user.sex))} to={editPath('sex')} />
        <Cell title={t('profile.email')} value={user.email || notSet} to={editPath('email')} />
      </CellGroup>
    </Page>
  );
}
