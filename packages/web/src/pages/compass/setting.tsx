import type { MomentSettings } from '@sparrow/protocol';
import { CheckOutline, SetOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../api';
import { feedback } from '../../components/feedback';
import { useBackTo } from '../../nav/navigation';
import { momentPaths, withQuery } from '../../nav/paths';
import { Cell, CellGroup } from '../../components/Cell';
import { FriendPicker } from '../../components/moments/FriendPicker';
import { MomentsFailed, MomentsLoading } from '../../components/moments/LoadStates';
import '../../components/moments/moments.css';
import { Page } from '../../components/Page';
import type { MessageKey } from '../../i18n/keys';
import { useLoaded } from '../../lib/use-loaded';

/** My moments settings, as the page opens. */
const readSettings = () => api.momentsSetting({}, { silent: true });
type List = 'hide_from' | 'hide_them';

/** How far back my friends may read my posts (docs/protocol.md `setting.range`, in days; 0 all). */
const RANGES = [
  [0, 'moments.settings.rangeAll'],
  [180, 'moments.settings.range180'],
  [30, 'moments.settings.range30'],
  [3, 'moments.settings.range3'],
] as const;

const LISTS = {
  hide_from: { title: 'moments.settings.hideFrom', hint: 'moments.settings.hideFromHint' },
  hide_them: { title: 'moments.settings.hideThem', hint: 'moments.settings.hideThemHint' },
} as const satisfies Record<List, { title: MessageKey; hint: MessageKey }>;

const isList = (v: string | null): v is List => v === 'hide_from' || v === 'hide_them';

/** One of the two lists: friends ticked here are saved as that list. */
function ListEditor({
  list,
  initial,
  onSaved,
}: {
  list: List;
  initial: number[];
  onSaved: (s: MomentSettings) => void;
}) {
  const { t } = useTranslation();
  const back = useBackTo(momentPaths.setting);
  const [chosen, setChosen] = useState<ReadonlySet<number>>(() => new Set(initial));
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      onSaved(await api.momentsSetting({ [list]: [...chosen] }, { loading: true }));
      feedback.toast(t('common.saved'));
      back();
    } catch {
      setBusy(false);
    }
  };
  return (
    <Page
      title={t(LISTS[list].title)}
      onBack={back}
      right={
        <button
          type="button"
          className="button button-primary moment-post-button"
          disabled={busy}
          onClick={() => void save()}
        >
          {t('common.save')}
        </button>
      }
    >
      <div className="moment-publish">
        <p className="moment-setting-hint">{t(LISTS[list].hint)}</p>
        <FriendPicker
          legend={t('moments.settings.pickFriends')}
          chosen={chosen}
          onChange={setChosen}
          empty={t('moments.noFriends')}
        />
      </div>
    </Page>
  );
}

/** 朋友圈设置 (`/pages/compass/setting`): whom my posts are hidden from, whose I skip, how far back friends read mine. */
export default function MomentSettingPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const action = params.get('action');
  const { data: settings, setData: setSettings, status, reload: load } = useLoaded(readSettings);

  const setRange = async (range: 0 | 3 | 30 | 180) => {
    const before = settings;
    if (before) setSettings({ ...before, range });
    try {
      setSettings(await api.momentsSetting({ range }));
    } catch {
      setSettings(before);
    }
  };

  if (isList(action) && settings) return <ListEditor list={action} initial={settings[action]} onSaved={setSettings} />;

  const title = t('routes.momentsSetting');
  if (status === 'error')
    return (
      <Page title={title}>
        <MomentsFailed icon={<SetOutline />} title={t('moments.settings.failed')} onRetry={() => void load()} />
      </Page>
    );
  if (!settings)
    return (
      <Page title={title}>
        <MomentsLoading />
      </Page>
    );

  const count = (ids: number[]) =>
    ids.length === 0 ? t('common.notSet') : t('moments.settings.people', { count: ids.length });
  return (
    <Page title={title}>
      <CellGroup title={t('moments.settings.privacy')}>
        {(Object.keys(LISTS) as List[]).map((list) => (
          <Cell
            key={list}
            title={t(LISTS[list].title)}
            value={count(settings[list])}
            to={withQuery(momentPaths.setting, { action: list })}
          />
        ))}
      </CellGroup>
      <fieldset className="cell-group option-list">
        <legend className="cell-group-title">{t('moments.settings.range')}</legend>
        <ul className="cells">
          {RANGES.map(([days, label]) => (
            <li key={days}>
              <label className="cell">
                <input
                  type="radio"
                  name="range"
                  value={days}
                  checked={settings.range === days}
                  onChange={() => void setRange(days)}
                />
                <span className="cell-title">{t(label)}</span>
                {settings.range === days && <CheckOutline className="cell-check" aria-hidden="true" />}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <p className="moment-setting-hint">{t('moments.settings.rangeHint')}</p>
    </Page>
  );
}
