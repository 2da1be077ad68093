import { EXPORT_DOWNLOAD_PATH, type DataExport, type ExportState } from '@sparrow/protocol';
import type { ExportRow } from './export-repo';

/** An export as its owner sees it: the archive's address only once it is done. */
export function toDataExport(row: ExportRow): DataExport {
  const state = row.state as ExportState;
  return {
    id: row.id,
    state,
    progress: state === 'done' ? 100 : row.progress,
    size: state === 'done' ? row.size : 0,
    create_time: row.create_time,
    expire_time: state === 'done' ? row.expires_at : 0,
    url: state === 'done' ? `${EXPORT_DOWNLOAD_PATH}?id=${row.id}` : '',
  };
}
