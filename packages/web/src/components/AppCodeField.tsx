import { useTranslation } from 'react-i18next';
import { Field, type FieldProps } from './Field';

/**
 * The six-digit code of an authenticator app (两步验证): numeric, offered by the system's
 * one-time-code autofill. Apart from Field: only the pages after a password use it, and its words
 * are in the locale's rest part.
 */
export function AppCodeField(props: Omit<FieldProps, 'label'> & { label?: string }) {
  const { t } = useTranslation();
  return (
    <Field
      label={t('twoStep.code')}
      placeholder={t('twoStep.codePlaceholder')}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      {...props}
    />
  );
}
