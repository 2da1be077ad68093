let preloader: (path: string) => void = () => {};

/** The route table (app/routes.ts) says here how to fetch the chunk of the page a path opens. */
export function setRoutePreloader(fn: (path: string) => void): void {
  preloader = fn;
}

/** Fetches the chunk of the page a path opens, so following a link shows it at once. */
export function preloadRoute(path: string): void {
  preloader(path);
}
