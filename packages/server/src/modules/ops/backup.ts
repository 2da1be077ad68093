import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APP_VERSION } from '@sparrow/protocol';
import { copySqlite, sqliteIntegrity as integrityOf } from '../../db/sqlite-copy';
import { importOnFirstUse } from '../../lib/lazy';

/** tar, for the operator's backup and restore only. */
const loadTar = importOnFirstUse(() => import('tar'));

/** The archive's description of itself, its first entry. */
export interface BackupManifest {
  format: 'sparrow-backup';
  version: 1;
  /** The server version that made it. */
  server: string;
  createdAt: string;
  /** Which database the server ran on: the archive holds the SQLite file only for `sqlite`. */
  database: 'sqlite' | 'postgres';
  /** The bucket the uploads were in (STORAGE_URL, without credentials): the archive holds none of them. */
  bucket?: string;
}

const MANIFEST = 'sparrow-backup.json';
const DB_FILE = 'sparrow.db';
const UPLOADS = 'uploads';

/** What a backup or a restore did, for the operator to read. */
export interface BackupReport {
  manifest: BackupManifest;
  /** Files under uploads/ in the archive. */
  uploads: number;
  /** The bucket holding the uploads instead, when the server keeps them in one. */
  bucket: string | undefined;
  /** SQLite's `PRAGMA integrity_check` of the database copy, or undefined on PostgreSQL. */
  integrity: string | undefined;
}

function countFiles(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

/**
 * Writes `<dataDir>`'s database and uploads into one gzipped tar archive at `file`. The SQLite
 * database is copied through SQLite's online backup API while the server keeps running and writing:
 * the copy is the database as of one moment, every write committed before it included. It is
 * taken before the uploads are, so every upload it names is in the archive. On PostgreSQL the
 * archive holds the uploads only; the database is dumped with pg_dump (see `pgDumpAdvice`). With
 * uploads in a bucket (`bucket`, from STORAGE_URL) the archive holds no uploads and its manifest names
 * the bucket: the store is the operator's to copy or version with its own tools.
 */
export async function backup(opts: {
  dataDir: string;
  file: string;
  database: 'sqlite' | 'postgres';
  bucket?: string | undefined;
}): Promise<BackupReport> {
  const out = path.resolve(opts.file);
  if (fs.existsSync(out)) throw new Error(`${out} exists already; name a new file`);
  const source = path.join(opts.dataDir, DB_FILE);
  if (opts.database === 'sqlite' && !fs.existsSync(source)) throw new Error(`no database at ${source}`);
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-backup-'));
  try {
    const manifest: BackupManifest = {
      format: 'sparrow-backup',
      version: 1,
      server: APP_VERSION,
      createdAt: new Date().toISOString(),
      database: opts.database,
      ...(opts.bucket && { bucket: opts.bucket }),
    };
    fs.writeFileSync(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    const entries = [MANIFEST];
    let integrity: string | undefined;
    if (opts.database === 'sqlite') {
      await copySqlite(source, path.join(staging, DB_FILE));
      integrity = integrityOf(path.join(staging, DB_FILE));
      if (integrity !== 'ok') throw new Error(`the copy failed SQLite's integrity check: ${integrity}`);
      entries.push(DB_FILE);
    }
    const uploads = path.join(opts.dataDir, UPLOADS);
    if (!opts.bucket && fs.existsSync(uploads)) {
      // The archive is made in one folder: the uploads are reached through a link to them.
      fs.symlinkSync(uploads, path.join(staging, UPLOADS), 'dir');
      entries.push(UPLOADS);
    }
    await (
      await loadTar()
    ).create(
      {
        gzip: true,
        file: out,
        cwd: staging,
        follow: true,
        portable: true,
        // An upload still being written (storage/storage.ts writes to a temporary name first).
        filter: (p) => !p.endsWith('.tmp'),
      },
      entries,
    );
    return { manifest, uploads: opts.bucket ? 0 : countFiles(uploads), integrity, bucket: opts.bucket };
  } catch (err) {
    fs.rmSync(out, { force: true });
    throw err;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Puts an archive made by `backup` into `dataDir`, which must be empty or absent: a restore never
 * mixes with a server's data. Only the manifest, the database and uploads/ are taken from it.
 */
export async function restore(opts: { dataDir: string; file: string }): Promise<BackupReport> {
  const file = path.resolve(opts.file);
  if (!fs.existsSync(file)) throw new Error(`no archive at ${file}`);
  const dataDir = path.resolve(opts.dataDir);
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0)
    throw new Error(`${dataDir} is not empty: restore into an empty data folder (DATA_DIR)`);
  let manifest: BackupManifest | undefined;
  await (
    await loadTar()
  ).list({
    file,
    filter: (p) => p === MANIFEST,
    onReadEntry: (entry) => {
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => {
        manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as BackupManifest;
      });
    },
  });
  if (manifest?.format !== 'sparrow-backup') throw new Error(`${file} is not a Sparrow backup`);
  fs.mkdirSync(dataDir, { recursive: true });
  // Plain files and folders only: a link in an archive could point a later entry outside the folder.
  const wanted = (p: string, type: string) =>
    (type === 'File' && (p === MANIFEST || p === DB_FILE || p.startsWith(`${UPLOADS}/`))) ||
    (type === 'Directory' && (p === `${UPLOADS}/` || p.startsWith(`${UPLOADS}/`)));
  await (
    await loadTar()
  ).extract({
    file,
    cwd: dataDir,
    strict: true,
    filter: (p, entry) => wanted(p.replace(/^\.\//, ''), 'type' in entry ? entry.type : ''),
  });
  const restoredDb = path.join(dataDir, DB_FILE);
  const integrity = manifest.database === 'sqlite' ? integrityOf(restoredDb) : undefined;
  if (integrity !== undefined && integrity !== 'ok')
    throw new Error(`the restored database failed SQLite's integrity check: ${integrity}`);
  // The manifest says what the archive held; the data folder has no use for it.
  fs.rmSync(path.join(dataDir, MANIFEST), { force: true });
  return { manifest, uploads: countFiles(path.join(dataDir, UPLOADS)), integrity, bucket: manifest.bucket };
}

/** What an operator on PostgreSQL runs beside `backup` and `restore`: the database is theirs to dump. */
export function pgDumpAdvice(archive: string, bucket?: string): string {
  const held = bucket ? 'neither it nor the uploads (they are in the bucket)' : 'the uploads only';
  return [
    `The database is PostgreSQL: this archive holds ${held}. Dump the database beside it`,
    '(pg_dump takes a consistent snapshot while the server runs):',
    '',
    '  pg_dump --format=custom --no-owner --file=sparrow.pgdump "$DATABASE_URL"',
    '',
    'and to restore, into an empty database, before starting the server:',
    '',
    '  pg_restore --no-owner --dbname="$DATABASE_URL" sparrow.pgdump',
    `  DATA_DIR=<empty folder> npm run admin -- restore ${archive}`,
  ].join('\n');
}
