/** The administration console (Raingad's `#/manage/*`), for users whose role is admin. */
export const managePaths = {
  /** 管理后台: the dashboard, or with `tab` one area of it (its tabs: pages/manage/tabs.ts). */
  console: '/manage/index',
} as const;
