import { useTranslation } from 'react-i18next';
import { copyText } from '../lib/clipboard';
import { feedback } from './feedback';
import './secret-box.css';

interface SecretBoxProps {
  /** What is shown to be copied: a token or secret, or an address or command with one in it. */
  value: string;
  /** The copy button's text (复制令牌); without it, no button. */
  copyLabel?: string;
  /** A command of several lines (smaller type, its line breaks kept) rather than one value to select whole. */
  command?: boolean;
  /** The page's own name for this box. */
  className?: string;
}

/**
 * A token, secret, address or command in a monospace box a person copies from (a token shown once, a
 * webhook's address, the curl that uses it), with the button that copies it and says whether it did.
 */
export function SecretBox({ value, copyLabel, command = false, className }: SecretBoxProps) {
  const { t } = useTranslation();
  const handleCopy = async () => {
    feedback.toast((await copyText(value)) ? t('common.copied') : t('common.copyFailed'));
  };
  const classes = `${command ? 'secret-box-command' : 'secret-box'}${className ? ` ${className}` : ''}`;
  return (
    <>
      {command ? (
        <pre className={classes}>{value}</pre>
      ) : (
        <p className={classes}>
          <code>{value}</code>
        </p>
      )}
      {copyLabel && (
        <div className="secret-box-actions">
          <button type="button" className="button button-default" onClick={() => void handleCopy()}>
            {copyLabel}
          </button>
        </div>
      )}
    </>
  );
}
