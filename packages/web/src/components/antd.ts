import { TOAST_MS } from '@sparrow/protocol';
import { Dialog, Toast, reduceMotion, unstableSetRender } from 'antd-mobile';
import { createRoot, type Root } from 'react-dom/client';

// antd-mobile renders Toast and Dialog with the legacy ReactDOM.render, which React 19 removed.
unstableSetRender((node, container) => {
  const host = container as Element & { __sparrowRoot?: Root };
  host.__sparrowRoot ??= createRoot(host);
  const root = host.__sparrowRoot;
  root.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
    delete host.__sparrowRoot;
  };
});
Toast.config({ duration: TOAST_MS });

// People who ask their system for less motion get toasts and dialogs without fades.
if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) reduceMotion();

export { Dialog, Toast };
