import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { describeS3, parseS3Url } from '../src/storage/s3-url';

describe('STORAGE_URL', () => {
  it('reads bucket, folder, endpoint, region, path style and credentials', () => {
    const at = parseS3Url(
      's3://AKID:s%2Fcret@sparrow-uploads/team/files/?endpoint=http%3A%2F%2Fminio%3A9000&region=eu-west-1&forcePathStyle=1',
    );
    expect(at).toEqual({
      bucket: 'sparrow-uploads',
      prefix: 'team/files/',
      endpoint: 'http://minio:9000',
      region: 'eu-west-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKID', secretAccessKey: 's/cret' },
    });
    expect(describeS3(at)).toBe('s3://sparrow-uploads/team/files/ at http://minio:9000');
  });

  it('leaves credentials to the AWS SDK and the bucket at its root when the URL names neither', () => {
    expect(parseS3Url('s3://uploads.example')).toMatchObject({
      bucket: 'uploads.example',
      prefix: '',
      endpoint: undefined,
      forcePathStyle: false,
      credentials: undefined,
    });
  });

  it('stops the server at start on a URL that is not one', () => {
    for (const bad of ['http://bucket', 's3://B', 's3://bucket?endpoint=minio:9000', 's3://key@bucket', 'not a url'])
      expect(() => loadConfig({ STORAGE_URL: bad })).toThrow(/STORAGE_URL/);
    expect(loadConfig({}).storageUrl).toBeUndefined();
    expect(loadConfig({ STORAGE_URL: 's3://bucket' }).storageUrl).toBe('s3://bucket');
  });
});
