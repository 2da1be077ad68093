import { APP_VERSION, APP_VERSION_CODE } from '@sparrow/protocol';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { checkForUpdate, loadSystemInfo } from '../../app/system';
import logo from '../../assets/logo.svg';
import { Cell, CellGroup } from '../../components/Cell';
import { Page } from '../../components/Page';
import { paths } from '../../nav/paths';
import { useConfig } from '../../stores/config';

/** About: the system's name and logo (getSystemInfo) and this client's version. */
export default function AboutPage() {
  const { t } = useTranslation();
  const sysInfo = useConfig((s) => s.config?.sysInfo);

  useEffect(() => {
    void loadSystemInfo();
  }, []);

  const name = sysInfo?.name || t('app.name');
  return (
    <Page title={t('routes.about')}>
      <div className="about-hero">
        <img className="about-logo" src={sysInfo?.logo || logo} alt={t('about.logo', { name })} />
        <h2 className="about-name">{name}</h2>
        <p className="about-version">{t('about.version', { version: APP_VERSION, code: APP_VERSION_CODE })}</p>
        <p className="about-intro">{t('about.intro')}</p>
      </div>
      <CellGroup>
        <Cell title={t('about.help')} to={paths.doc} />
        <Cell title={t('about.checkUpdate')} onClick={() => void checkForUpdate(true)} />
      </CellGroup>
    </Page>
  );
}
