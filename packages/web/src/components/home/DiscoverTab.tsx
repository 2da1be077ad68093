import { CompassOutline, ScanningOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { qrPaths } from '../../nav/paths';
import { useConfig } from '../../stores/config';
import { Cell, CellGroup } from '../Cell';
import { EmptyState } from '../EmptyState';
import { CompassEntries } from './CompassEntries';

/**
 * The Discover tab: the operator's entries (Moments first), then 扫一扫. With `compass.status`
 * off the operator has closed the tab, so it holds nothing but saying so; scanning stays in the
 * "+" menu of the Messages and Contacts tabs.
 */
export function DiscoverTab() {
  const { t } = useTranslation();
  const off = useConfig((s) => s.config !== null && s.config.compass.status !== 1);
  if (off)
    return (
      <EmptyState
        icon={<CompassOutline />}
        title={t('moments.discoverOff')}
        description={t('moments.discoverOffHint')}
      />
    );
  return (
    <>
      <CompassEntries />
      <CellGroup>
        <Cell icon={<ScanningOutline />} title={t('qr.entry.scan')} to={qrPaths.scan} />
      </CellGroup>
    </>
  );
}
