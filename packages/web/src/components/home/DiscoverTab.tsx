import { ScanningOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { qrPaths } from '../../app/qr-paths';
import { Cell, CellGroup } from '../Cell';

/** The Discover tab: 扫一扫, WeChat's first row there. */
export function DiscoverTab() {
  const { t } = useTranslation();
  return (
    <CellGroup>
      <Cell icon={<ScanningOutline />} title={t('qr.entry.scan')} to={qrPaths.scan} />
    </CellGroup>
  );
}
