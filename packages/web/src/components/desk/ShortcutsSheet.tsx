import { useTranslation } from 'react-i18next';
import { appleKeyboard } from '../../lib/desk-keys';
import { useSettings } from '../../stores/settings';
import { Sheet } from '../Sheet';
import './desk.css';

/** ⌘ on Apple's keyboards, Ctrl elsewhere. */
export const commandKey = (): string => (appleKeyboard() ? '⌘' : 'Ctrl');

type KeyName =
  'send' | 'newline' | 'editLast' | 'paste' | 'close' | 'switcher' | 'previousChat' | 'nextChat' | 'shortcuts';

function rows(sendWithCtrl: boolean): [string[], KeyName][] {
  const cmd = commandKey();
  return [
    [sendWithCtrl ? [cmd, 'Enter'] : ['Enter'], 'send'],
    [sendWithCtrl ? ['Enter'] : [cmd, 'Enter'], 'newline'],
    [['↑'], 'editLast'],
    [[cmd, 'V'], 'paste'],
    [['Esc'], 'close'],
    [[cmd, 'K'], 'switcher'],
    [['Alt', '↑'], 'previousChat'],
    [['Alt', '↓'], 'nextChat'],
    [['?'], 'shortcuts'],
  ];
}

/** "?": the keyboard shortcuts, the send key as chosen in settings. */
export function ShortcutsSheet({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const sendKey = useSettings((s) => s.sendKey);
  return (
    <Sheet title={t('desk.shortcutsTitle')} onClose={onClose}>
      <table className="shortcuts">
        <tbody>
          {rows(sendKey === 'ctrlEnter').map(([keys, what]) => (
            <tr key={what}>
              <td className="shortcuts-keys">
                {keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && ' + '}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </td>
              <td>{t(`desk.keys.${what}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Sheet>
  );
}
