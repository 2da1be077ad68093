import type { DataExport } from '@sparrow/protocol';

/** An open "download my data" page hearing each `dataExport` push (progress, done, expired). */
export type DataExportListener = (data: DataExport) => void;

const listeners = new Set<DataExportListener>();

/** Exports of my data (下载我的数据): the pushes an open page follows. */
export const dataExports = {
  /** A push `dataExport`: the open pages hear it. */
  onPush(data: DataExport): void {
    for (const listener of [...listeners]) listener(data);
  },

  /** Hears every `dataExport` push until the returned function is called (an effect's cleanup). */
  subscribe(listener: DataExportListener): () => void {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};
