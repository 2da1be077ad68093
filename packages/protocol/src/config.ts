import type { GlobalConfig } from './entities';
import { EDIT_TIME_DEFAULT_S, REDO_TIME_DEFAULT_S } from './limits';
import { MOMENTS_PAGE } from './compass';
import { PICTURES } from './pictures';

/** Extensions accepted by uploadFile unless the operator changes `fileUpload.fileExt`. */
export const DEFAULT_FILE_EXT = [
  'jpg',
  'jpeg',
  'png',
  'gif',
  'webp',
  'bmp',
  'mp3',
  'wav',
  'm4a',
  'aac',
  'ogg',
  'amr',
  'webm',
  'mp4',
  'mov',
  'pdf',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'txt',
  'md',
  'csv',
  'rtf',
  'zip',
  'rar',
  '7z',
  'gz',
  'tar',
];

/** The system configuration's defaults (docs/protocol.md §2). */
export const DEFAULT_GLOBAL_CONFIG: GlobalConfig = {
  sysInfo: {
    name: 'Sparrow',
    logo: '',
    diyName: 1,
    regauth: 0,
    regtype: 1,
    runMode: 2,
    ipregion: 0,
    multipleLogin: 1,
    registerInterval: 0,
  },
  chatInfo: {
    online: 1,
    webrtc: 1,
    dbDelMsg: 1,
    redoTime: REDO_TIME_DEFAULT_S,
    editTime: EDIT_TIME_DEFAULT_S,
    groupChat: 1,
    simpleChat: 1,
    groupUserMax: 0,
    sendInterval: 0,
    messageDays: 0,
    fileDays: 0,
    stun: [],
  },
  fileUpload: { size: 50, fileExt: DEFAULT_FILE_EXT, emojiSize: 2 },
  map: {
    tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    attribution: '© OpenStreetMap contributors',
    searchUrl: 'https://nominatim.openstreetmap.org/search',
  },
  compass: {
    status: 1,
    mode: 1,
    list: [{ icon: PICTURES.moments, name: '朋友圈', type: 1, url: MOMENTS_PAGE }],
  },
  demon_mode: 0,
};
