import type { LastSeenTo } from '@sparrow/protocol';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { useBackTo } from '../../nav/navigation';
import { paths } from '../../nav/paths';
import { session, useSession } from '../../stores/session';
import { Cell, OptionList } from '../Cell';
import { Page } from '../Page';

const CHOICES: readonly LastSeenTo[] = [0, 1, 2];
const LABELS = { 0: 'presence.toEveryone', 1: 'presence.toFriends', 2: 'presence.toNobody' } as const;
const PICKER = `${paths.setting}?action=lastSeen`;

/** Settings → 隐私 → 最近在线: whom it goes to now. */
export function LastSeenCell() {
  const { t } = useTranslation();
  const to = useSession((s) => s.user?.last_seen_to ?? 0);
  return <Cell title={t('presence.lastSeenTitle')} value={t(LABELS[to])} to={PICKER} />;
}

/**
 * Who sees my 最近在线: everyone who may see my profile, friends only, or nobody. Hiding mine hides no
 * one else's from me (docs/product.md §3).
 */
export function LastSeenPicker() {
  const { t } = useTranslation();
  const back = useBackTo(paths.setting);
  const to = useSession((s) => s.user?.last_seen_to ?? 0);
  const handleChange = async (next: LastSeenTo) => {
    try {
      session.setUser(await api.updateUserInfo({ last_seen_to: next }));
    } catch {
      // The request layer said why; the choice stays as the server has it.
    }
  };
  return (
    <Page title={t('presence.lastSeenTitle')} onBack={back}>
      <OptionList
        legend={t('presence.lastSeenTitle')}
        name="lastSeenTo"
        options={CHOICES}
        value={to}
        label={(choice: LastSeenTo) => t(LABELS[choice])}
        onChange={(choice: LastSeenTo) => void handleChange(choice)}
      />
      <p className="form-note">{t('presence.lastSeenNote')}</p>
    </Page>
  );
}
