/** What other modules may use of qr; everything else in this folder is its own. */
export * from './service';
export * from './login';
export type { QrSubject } from './tokens';
