import path from 'node:path';
import { parseS3Url } from './s3-url';
import { DiskStorage, type Storage, sweepStaged } from './storage';

/**
 * The uploads store the configuration names: the bucket of `STORAGE_URL` when set (every server
 * process shares it), else `<dataDir>/uploads` on this machine. The AWS SDK is loaded only for a
 * bucket: it adds about 170 ms and 10 MB to a start that does not use it.
 */
export async function createStorage(
  env: { storageUrl: string | undefined; dataDir: string },
  onUnavailable: (err: Error) => void,
): Promise<Storage> {
  if (env.storageUrl) {
    const { S3Storage } = await import('./s3');
    const storage = new S3Storage(parseS3Url(env.storageUrl), onUnavailable, path.join(env.dataDir, 'staging'));
    await sweepStaged(storage.tempDir);
    return storage;
  }
  const storage = new DiskStorage(path.join(env.dataDir, 'uploads'), onUnavailable);
  await sweepStaged(storage.tempDir);
  return storage;
}
