/** When a mute ends, as a person reads it: the time today, or the date and time later on. */
export function formatMuteEnd(until: number, now: number, locale: string): string {
  const end = new Date(until);
  const sameDay = end.toDateString() === new Date(now).toDateString();
  const options: Intl.DateTimeFormatOptions = sameDay
    ? { hour: '2-digit', minute: '2-digit' }
    : { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit' };
  return new Intl.DateTimeFormat(locale, options).format(end);
}
