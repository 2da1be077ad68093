import path from 'node:path';
import { S3Storage } from './s3';
import { parseS3Url } from './s3-url';
import { DiskStorage, type Storage } from './storage';

/**
 * The uploads store the configuration names: the bucket of `STORAGE_URL` when set (every server
 * process shares it), else `<dataDir>/uploads` on this machine.
 */
export function createStorage(
  env: { storageUrl: string | undefined; dataDir: string },
  onUnavailable: (err: Error) => void,
): Storage {
  if (env.storageUrl) return new S3Storage(parseS3Url(env.storageUrl), onUnavailable);
  return new DiskStorage(path.join(env.dataDir, 'uploads'), onUnavailable);
}
