import type zhHans from './locales/zh-Hans.json';

/** The shape every locale file has: zh-Hans is the source. */
export type Messages = typeof zhHans;

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

/** Every translation key, e.g. `errors.noNetwork`. */
export type MessageKey = Leaves<Messages>;
