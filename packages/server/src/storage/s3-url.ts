/** Where an S3-compatible store is, read from `STORAGE_URL`. */
export interface S3Location {
  bucket: string;
  /** Folder inside the bucket, '' or ending in '/'. */
  prefix: string;
  /** The store's address; AWS itself when absent. */
  endpoint: string | undefined;
  region: string;
  forcePathStyle: boolean;
  /** From the URL's user:password; the AWS SDK's own chain (AWS_ACCESS_KEY_ID…, profiles, roles) when absent. */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
}

/**
 * Reads `s3://[key:secret@]bucket[/prefix]?endpoint=…&region=…&forcePathStyle=1`; throws a message
 * for the operator when it is not one.
 */
export function parseS3Url(value: string): S3Location {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`STORAGE_URL is not a URL: ${value}`);
  }
  if (url.protocol !== 's3:') throw new Error(`STORAGE_URL must start with s3:// (got ${url.protocol}//)`);
  const bucket = url.hostname;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new Error(`STORAGE_URL names no valid bucket: "${bucket}" (3-63 lowercase letters, digits, dots, dashes)`);
  const prefix = url.pathname.replace(/^\/+|\/+$/g, '');
  const endpoint = url.searchParams.get('endpoint') || undefined;
  if (endpoint !== undefined && !/^https?:\/\//.test(endpoint))
    throw new Error(`STORAGE_URL's endpoint must be an http(s) address: ${endpoint}`);
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  if (Boolean(user) !== Boolean(password))
    throw new Error('STORAGE_URL names an access key without its secret, or a secret without its key');
  return {
    bucket,
    prefix: prefix ? `${prefix}/` : '',
    endpoint,
    region: url.searchParams.get('region') || process.env.AWS_REGION || 'us-east-1',
    forcePathStyle: ['1', 'true'].includes(url.searchParams.get('forcePathStyle') ?? ''),
    credentials: user ? { accessKeyId: user, secretAccessKey: password } : undefined,
  };
}

/** The store's address without credentials, for logs and backup reports. */
export function describeS3(location: S3Location): string {
  const where = location.endpoint ? ` at ${location.endpoint}` : '';
  return `s3://${location.bucket}/${location.prefix}${where}`;
}
