import { ScanningOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { qrPaths } from '../../app/qr-paths';
import { Cell, CellGroup } from '../Cell';
import { CompassEntries } from './CompassEntries';

/** The Discover tab: the operator's entries (Moments first), then 扫一扫. */
export function DiscoverTab() {
  const { t } = useTranslation();
  return (
    <>
      <CompassEntries />
      <CellGroup>
        <Cell icon={<ScanningOutline />} title={t('qr.entry.scan')} to={qrPaths.scan} />
      </CellGroup>
    </>
  );
}
