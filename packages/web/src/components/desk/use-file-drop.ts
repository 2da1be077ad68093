import { useCallback, useRef, useState, type DragEvent } from 'react';
import { carriesFiles, filesOf } from '../../lib/dropped-files';

/**
 * Files dragged onto an element: `over` while a drag of files is above it (the drop zone shows),
 * `onFiles` with them, in their order, when they are let go. Drags of text or links are left alone.
 */
export function useFileDrop(enabled: boolean, onFiles: (files: File[]) => void) {
  const [over, setOver] = useState(false);
  // dragenter and dragleave fire for every child crossed: the drag is over while more entered than left.
  const depth = useRef(0);

  const accepts = useCallback((e: DragEvent) => enabled && carriesFiles(e.dataTransfer), [enabled]);

  const handlers = {
    onDragEnter: (e: DragEvent) => {
      if (!accepts(e)) return;
      e.preventDefault();
      depth.current += 1;
      setOver(true);
    },
    onDragOver: (e: DragEvent) => {
      if (!accepts(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (e: DragEvent) => {
      if (!accepts(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setOver(false);
    },
    onDrop: (e: DragEvent) => {
      if (!accepts(e)) return;
      e.preventDefault();
      depth.current = 0;
      setOver(false);
      const files = filesOf(e.dataTransfer);
      if (files.length > 0) onFiles(files);
    },
  };
  return { over, handlers };
}
