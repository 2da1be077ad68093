import type { DeviceName } from '@sparrow/protocol';
import type { TFunction } from 'i18next';

/** A device as QR login names it: "Chrome on Linux", or whichever half is known. */
export function deviceLabel(device: DeviceName, t: TFunction): string {
  if (device.browser && device.os) return t('qrLogin.device', { browser: device.browser, os: device.os });
  return device.browser || device.os || t('qrLogin.deviceUnknown');
}

/** A computer's screen, for web sign-in (antd-mobile-icons has none). */
export function MonitorIcon({ className }: { className?: string }) {
  return (
    <svg
      className={className}
      width="1em"
      height="1em"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <rect x="3" y="4" width="18" height="12" rx="1.5" />
      <path d="M9 20h6M12 16v4" />
    </svg>
  );
}
