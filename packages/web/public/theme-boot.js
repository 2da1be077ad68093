/*
 * Shows the colour theme before the first paint, so that a dark page never flashes white: the 深色模式
 * choice kept in localStorage ('theme': system, light or dark), else the system's scheme. It does what
 * src/lib/color-theme.ts's resolveScheme and showScheme do (a test runs both); src/app/theme.ts follows
 * changes afterwards.
 */
/* global window, document */
(function () {
  var choice = null;
  try {
    choice = window.localStorage.getItem('theme');
  } catch {
    choice = null;
  }
  var systemDark = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;
  var scheme = choice === 'dark' || (choice !== 'light' && systemDark) ? 'dark' : 'light';
  var root = document.documentElement;
  root.setAttribute('data-theme', scheme);
  root.setAttribute('data-prefers-color-scheme', scheme);
  var meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.setAttribute('content', scheme === 'dark' ? '#111111' : '#EDEDED');
})();
