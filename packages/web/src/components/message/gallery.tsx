import { isMessageOf, type Message, type MessageOf } from '@sparrow/protocol';
import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

const ImageViewer = lazy(() => import('./ImageViewer').then((m) => ({ default: m.ImageViewer })));

interface Gallery {
  open(message: MessageOf<'image'>): void;
}

const GalleryContext = createContext<Gallery | null>(null);

function useViewerState(pictures: () => readonly MessageOf<'image'>[]) {
  const [shown, setShown] = useState<{ images: readonly MessageOf<'image'>[]; start: number } | null>(null);
  const open = useCallback(
    (message: MessageOf<'image'>) => {
      const list = pictures();
      const at = list.findIndex((m) => m.id === message.id);
      setShown(at >= 0 ? { images: list, start: at } : { images: [message], start: 0 });
    },
    [pictures],
  );
  const viewer = shown ? (
    <Suspense fallback={null}>
      <ImageViewer images={shown.images} start={shown.start} onClose={() => setShown(null)} />
    </Suspense>
  ) : null;
  return { open, viewer };
}

/**
 * The pictures of a conversation, so that a tapped picture opens full size with its neighbours a
 * swipe away. The chat page wraps its message list in it with the rows it holds.
 */
export function MediaGalleryProvider({
  rows,
  children,
}: {
  rows: readonly { message: Message }[];
  children: ReactNode;
}) {
  const images = useMemo(
    () =>
      rows
        .map((r) => r.message)
        .filter((m): m is MessageOf<'image'> => isMessageOf(m, 'image') && m.msg_id > 0 && m.content !== ''),
    [rows],
  );
  const pictures = useCallback(() => images, [images]);
  const { open, viewer } = useViewerState(pictures);
  const gallery = useMemo(() => ({ open }), [open]);
  return (
    <GalleryContext.Provider value={gallery}>
      {children}
      {viewer}
    </GalleryContext.Provider>
  );
}

/** Opens a picture full size: among its conversation's pictures inside a provider, alone outside one. */
export function useOpenImage(message: MessageOf<'image'>): { open: () => void; viewer: ReactNode } {
  const gallery = useContext(GalleryContext);
  const alone = useCallback(() => [message], [message]);
  const local = useViewerState(alone);
  const open = useCallback(() => (gallery ? gallery.open(message) : local.open(message)), [gallery, local, message]);
  return { open, viewer: gallery ? null : local.viewer };
}
