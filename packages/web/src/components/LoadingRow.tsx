import { useTranslation } from 'react-i18next';

/** A small spinner on a row of its own, told to screen readers as 加载中: more of a list, a sheet's content. */
export function LoadingRow() {
  const { t } = useTranslation();
  return (
    <div className="chat-top" role="status">
      <span className="spinner spinner-small" aria-hidden="true" />
      <span className="visually-hidden">{t('common.loading')}</span>
    </div>
  );
}
