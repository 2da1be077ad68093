import { createReadStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { AppError } from '../errors';
import { mimeOf } from './mime';
import type { S3Location } from './s3-url';
import { stageTo } from './staging';
import { contentKey, hashKey, privateKey, type StagedFile, type Storage, validKey } from './storage';

const missing = (err: unknown) =>
  err instanceof NoSuchKey ||
  err instanceof NotFound ||
  (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404);

/**
 * The same content-addressed keys as `DiskStorage`, as objects in a bucket that every server
 * process shares. A store that cannot be reached or refuses a write answers `StorageUnavailable`
 * (HTTP 503) and tells `onUnavailable`.
 */
export class S3Storage implements Storage {
  private readonly client: S3Client;

  constructor(
    private readonly location: S3Location,
    private readonly onUnavailable: (err: Error) => void = () => undefined,
    /** A folder on this machine where uploads are staged before they go to the bucket. */
    readonly tempDir: string = path.join(os.tmpdir(), 'sparrow-staging'),
  ) {
    this.client = new S3Client({
      region: location.region,
      endpoint: location.endpoint,
      forcePathStyle: location.forcePathStyle,
      credentials: location.credentials,
      // A store that is down should answer 503 soon, not after the SDK's long default back-off.
      maxAttempts: 2,
      // Uploads go as streams of a known length. With a checksum on every request the SDK would
      // send a stream in aws-chunked encoding with a trailing checksum, which S3-compatible stores
      // such as MinIO's older releases and s3rver store as it came, chunk headers and all.
      requestChecksumCalculation: 'WHEN_REQUIRED',
    });
  }

  private object(key: string) {
    return { Bucket: this.location.bucket, Key: `${this.location.prefix}${key}` };
  }

  private unavailable(err: unknown): never {
    this.onUnavailable(err as Error);
    throw new AppError('StorageUnavailable');
  }

  stage(source: Readable) {
    return stageTo(this.tempDir, source, this.onUnavailable);
  }

  put(bytes: Buffer, ext: string) {
    return this.upload(contentKey(bytes, ext), () => bytes, bytes.length);
  }

  /** Sends the staged file to the bucket as a stream: its bytes are never held whole. */
  putFile(staged: StagedFile, ext: string) {
    return this.upload(hashKey(staged.hash, ext), () => createReadStream(staged.path), staged.size);
  }

  async putPrivate(staged: StagedFile, ext: string) {
    const key = privateKey(ext);
    await this.upload({ key, hash: staged.hash }, () => createReadStream(staged.path), staged.size);
    return key;
  }

  private async upload({ key, hash }: { key: string; hash: string }, body: () => Buffer | Readable, length: number) {
    try {
      await this.client.send(new HeadObjectCommand(this.object(key)));
      return { key, hash };
    } catch (err) {
      if (!missing(err)) this.unavailable(err);
    }
    try {
      await this.client.send(
        new PutObjectCommand({
          ...this.object(key),
          Body: body(),
          ContentLength: length,
          ContentType: mimeOf(key.slice(key.lastIndexOf('.') + 1)),
        }),
      );
    } catch (err) {
      this.unavailable(err);
    }
    return { key, hash };
  }

  async open(key: string) {
    if (!validKey(key)) return null;
    try {
      const got = await this.client.send(new GetObjectCommand(this.object(key)));
      return { stream: got.Body as Readable, size: Number(got.ContentLength ?? 0) };
    } catch (err) {
      if (missing(err)) return null;
      return this.unavailable(err);
    }
  }

  async remove(key: string) {
    if (!validKey(key)) return;
    try {
      await this.client.send(new DeleteObjectCommand(this.object(key)));
    } catch (err) {
      if (!missing(err)) this.unavailable(err);
    }
  }

  /** Closes the client's connections. */
  close(): void {
    this.client.destroy();
  }
}
