import fs from 'node:fs';
import path from 'node:path';
import type * as z from 'zod';
import { loadConfig } from './config';
import { BACKUPS_DIR, checkUpgrade, migrate, openDb, SQLITE_FILE, type UpgradeCheck } from './db';
import {
  ManageDepartmentCreateBody,
  ManageDepartmentDelBody,
  ManageDepartmentRenameBody,
  ManageKeywordListCreateBody,
  ManageKeywordListDelBody,
  ManageKeywordTestBody,
  KEYWORD_IMPORT_TEXT_MAX,
  ManageReportActBody,
  ManageReportGetBody,
  ManageReportListBody,
  ManageUserDepartmentBody,
  translate,
} from '@sparrow/protocol';
import { AppError } from './errors';
import { AdminService, COMMAND_LINE } from './modules/admin';
import { KeywordAdmin, KeywordScreen } from './modules/keywords';
import { ReportQueue } from './modules/report/queue';
import { ConfigService } from './modules/system/config-service';
import { backup, pgDumpAdvice, restore, type BackupReport } from './modules/ops';
import { createRepos } from './repos';
import { RetentionService } from './modules/retention';
import { FileService } from './modules/upload';
import { createStorage } from './storage/create';
import { describeS3, parseS3Url } from './storage/s3-url';

const USAGE = `npm run admin -- <command>

  config get [path]                       show the configuration (or one setting)
  config set <path> <value>               change a setting, e.g. config set chatInfo.redoTime 600
  user create <account> <password> [name] [--admin]
  user disable <account>                  disable a user and end all their sessions
  user enable <account>
  user role <account> admin|user         the last enabled admin keeps the role
  user password <account> <password>      set a password; the user's sessions end and they choose
                                          their own at next login
  user logout <account>                   end every session of a user
  user department <account> <id>          put a user in a department (0: none)
  department list                         every department: id, parent, people in it, name
  department create <name> [parent id]    a department, at the top level or inside another
  department rename <id> <name>
  department delete <id>                  only when no one and no department is in it
  keyword lists                           the keyword lists (敏感词): id, action, on/off, words, name
  keyword create <name> refuse|replace|review
  keyword enable|disable <id>             turn a list's words on or off
  keyword delete <id>                     a list and all its words
  keyword import <name> refuse|replace|review <file>
                                          add the words of a file (one a line; '-' for standard input)
                                          to the list of that name, made when there is none
  keyword test "<text>"                   what the lists make of a text
  invite create [uses=1] [days=7]         make an invite code (for sysInfo.regtype 2)
  announce "<title>" "<text>"             publish a system announcement to everyone
  report list [new|review|closed] [page]  the report queue (投诉), newest first, 20 a page
  report show <id>                        a report with what it saw; a new one goes into review
  report act <id> <action> [minutes]      warn | mute <minutes> | disable | dismiss: close it with
                                          that outcome and tell the reporter (takedown and dissolve
                                          need a running server: the console)
  retention status                        the retention policy (chatInfo.messageDays, chatInfo.fileDays)
                                          and what the last sweep did
  retention run                           sweep now: delete messages past the server's and each group's
                                          retention, expire old files, free the files nothing uses
                                          (waits while another node is sweeping)
  backup <file.tar.gz>                    copy the database (SQLite, while the server runs) and the uploads
                                          into one archive; on PostgreSQL the uploads, and how to pg_dump
  restore <file.tar.gz>                   put an archive back into DATA_DIR, which must be empty
  upgrade                                 run the pending migrations now (as the server does at start;
                                          on SQLite a copy goes into DATA_DIR/backups/ first)
  upgrade --check                         run the pending migrations on a copy (SQLite) or in a
                                          transaction rolled back (PostgreSQL) and say how each went;
                                          the database is not changed

Running servers pick up configuration changes within a few seconds and push them as updateConfig.
Commands work on the server's data folder (DATA_DIR, ./data by default) or its PostgreSQL database
(DATABASE_URL); on SQLite a folder with no database is refused unless --create is given.`;

/** `--create`: a command may make a new SQLite database where the data folder has none. */
const CREATE = '--create';
/** `upgrade --check`: try the pending migrations without changing the database. */
const CHECK = '--check';

async function main(argv: string[]): Promise<number> {
  const create = argv.includes(CREATE);
  const [area, verb, ...args] = argv.filter((a) => a !== CREATE);
  if (!area || area === 'help' || area === '--help') {
    console.log(USAGE);
    return area ? 0 : 1;
  }
  const env = loadConfig();
  const folder = path.resolve(env.dataDir);
  console.error(
    env.databaseUrl ? `database: PostgreSQL (DATABASE_URL); data folder ${folder}` : `data folder: ${folder}`,
  );
  if (!env.databaseUrl && area !== 'restore' && !create && !fs.existsSync(path.join(folder, SQLITE_FILE))) {
    throw new Error(
      `no database in ${folder}: set DATA_DIR to the server's data folder (npm start keeps it in ./data), ` +
        `or add ${CREATE} to start a new one there`,
    );
  }
  // Neither opens the database the way the server does: restore has none yet, backup only reads.
  if (area === 'backup' || area === 'restore') {
    if (!verb) throw new Error(`${area} needs an archive file\n\n${USAGE}`);
    return area === 'backup'
      ? runBackup(env.dataDir, env.databaseUrl, env.storageUrl && describeS3(parseS3Url(env.storageUrl)), verb)
      : runRestore(env.dataDir, verb);
  }
  if (area === 'upgrade') {
    if (verb !== undefined && verb !== CHECK) throw new Error(`upgrade takes only ${CHECK}\n\n${USAGE}`);
    return runUpgrade(env.dataDir, env.databaseUrl, verb === CHECK);
  }
  const opened = openDb({ databaseUrl: env.databaseUrl, dataDir: env.dataDir });
  try {
    await migrate(opened, { log: (line) => console.error(line) });
    const repos = createRepos(opened.db, opened.dialect);
    const config = new ConfigService(repos.config);
    await config.load();
    const admin = new AdminService(repos, config);
    const need = (n: number) => {
      if (args.length < n) throw new Error(`missing arguments\n\n${USAGE}`);
    };
    if (area === 'announce') {
      const [title, text] = [verb, ...args];
      if (!title || text === undefined) throw new Error(`announce needs a title and a text\n\n${USAGE}`);
      console.log(`announcement ${await admin.site.announce(title, text)} published`);
      return 0;
    }
    switch (`${area} ${verb ?? ''}`) {
      case 'config get':
        console.log(JSON.stringify(admin.site.getConfig(args[0]), null, 2));
        break;
      case 'config set':
        need(2);
        console.log(JSON.stringify(await admin.site.setConfig(args[0]!, args.slice(1).join(' ')), null, 2));
        break;
      case 'user create': {
        need(2);
        const positional = args.filter((a) => !a.startsWith('--'));
        const id = await admin.users.createUser(
          positional[0]!,
          positional[1]!,
          positional[2] ?? positional[0]!,
          args.includes('--admin'),
        );
        console.log(`created user ${positional[0]} (id ${id})`);
        break;
      }
      case 'user disable':
      case 'user enable':
        need(1);
        await admin.users.setStatus(args[0]!, verb === 'enable');
        console.log(`${verb}d ${args[0]}`);
        break;
      case 'user role':
        need(2);
        if (args[1] !== 'admin' && args[1] !== 'user') throw new Error('role is admin or user');
        await admin.users.setRole(args[0]!, args[1]);
        console.log(`${args[0]} is now ${args[1]}`);
        break;
      case 'user password':
        need(2);
        await admin.users.setPassword(args[0]!, args[1]!);
        console.log(`password of ${args[0]} set; they choose their own at next login`);
        break;
      case 'user logout':
        need(1);
        await admin.users.endSessionsOf(args[0]!);
        console.log(`ended every session of ${args[0]}`);
        break;
      case 'user department': {
        need(2);
        const body = checked(ManageUserDepartmentBody.pick({ dep_id: true }), { dep_id: args[1] });
        await admin.departments.setDepartment(args[0]!, body.dep_id);
        console.log(`${args[0]} is now in department ${body.dep_id}`);
        break;
      }
      case 'department list':
        for (const d of await admin.departments.listDepartments())
          console.log(`${d.id}\tparent ${d.parent_id}\t${d.user_count} people\t${d.name}`);
        break;
      case 'department create': {
        need(1);
        const dep = await admin.departments.createDepartment(
          checked(ManageDepartmentCreateBody, { name: args[0], parent_id: args[1] ?? 0 }),
        );
        console.log(`created department ${dep.name} (id ${dep.id})`);
        break;
      }
      case 'department rename': {
        need(2);
        const body = checked(ManageDepartmentRenameBody, { id: args[0], name: args.slice(1).join(' ') });
        await admin.departments.renameDepartment(body.id, body.name);
        console.log(`department ${body.id} is now ${body.name}`);
        break;
      }
      case 'department delete': {
        need(1);
        const body = checked(ManageDepartmentDelBody, { id: args[0] });
        await admin.departments.deleteDepartment(body.id);
        console.log(`deleted department ${body.id}`);
        break;
      }
      case 'report list': {
        const reports = new ReportQueue({ repos, now: Date.now }, admin);
        const body = checked(ManageReportListBody, { status: args[0], page: args[1] });
        const { items, total } = await reports.list(body);
        for (const r of items)
          console.log(
            `${r.id}\t${r.status}${r.action ? `:${r.action}` : ''}\t${new Date(r.create_time).toISOString()}\t` +
              `${r.kind} ${r.target_id}\t${r.reason}\tby ${r.reporter.account}\tabout ${r.target_user.account}`,
          );
        console.log(`${total} in all`);
        break;
      }
      case 'report show': {
        need(1);
        const reports = new ReportQueue({ repos, now: Date.now }, admin);
        console.log(
          JSON.stringify(await reports.open(checked(ManageReportGetBody, { id: args[0] }).id, COMMAND_LINE), null, 2),
        );
        break;
      }
      case 'report act': {
        need(2);
        const reports = new ReportQueue({ repos, now: Date.now }, admin);
        const body = checked(ManageReportActBody, { id: args[0], action: args[1], minutes: args[2] });
        const closed = await reports.act(body, COMMAND_LINE);
        console.log(`report ${closed.id} closed: ${closed.action}`);
        break;
      }
      case 'keyword lists':
      case 'keyword create':
      case 'keyword enable':
      case 'keyword disable':
      case 'keyword delete':
      case 'keyword import':
      case 'keyword test':
        return await keywordCommand(verb ?? '', args, repos, admin);
      case 'invite create':
        console.log(await admin.site.createInvite(Number(args[0] ?? 1), Number(args[1] ?? 7)));
        break;
      case 'retention status':
      case 'retention run':
      case 'retention --run':
        return await runRetention(env, repos, config, verb !== 'status');
      default:
        console.error(`unknown command: ${area} ${verb ?? ''}\n\n${USAGE}`);
        return 1;
    }
    return 0;
  } finally {
    await opened.close();
  }
}

/** `keyword …`: the keyword lists, changed as the console changes them (audited; servers rebuild their matcher). */
async function keywordCommand(
  verb: string,
  args: string[],
  repos: ReturnType<typeof createRepos>,
  admin: AdminService,
): Promise<number> {
  const screen = new KeywordScreen(repos.keywords, repos.config);
  await screen.load();
  const keywords = new KeywordAdmin(repos.keywords, screen, admin.audit, Date.now);
  const idOf = () => checked(ManageKeywordListDelBody, { id: args[0] }).id;
  switch (verb) {
    case 'lists':
      for (const l of await keywords.lists())
        console.log(`${l.id}\t${l.action}\t${l.enabled ? 'on' : 'off'}\t${l.word_count}\t${l.name}`);
      return 0;
    case 'create': {
      const list = await keywords.createList(checked(ManageKeywordListCreateBody, { name: args[0], action: args[1] }));
      console.log(`created keyword list ${list.name} (id ${list.id}, ${list.action})`);
      return 0;
    }
    case 'enable':
    case 'disable':
      await keywords.updateList({ id: idOf(), enabled: verb === 'enable' ? 1 : 0 });
      console.log(`keyword list ${args[0]} is ${verb === 'enable' ? 'on' : 'off'}`);
      return 0;
    case 'delete':
      await keywords.deleteList(idOf());
      console.log(`deleted keyword list ${args[0]}`);
      return 0;
    case 'import': {
      const { name, action } = checked(ManageKeywordListCreateBody, { name: args[0], action: args[1] });
      if (!args[2]) throw new Error('keyword import <name> <action> <file>');
      const text = fs.readFileSync(args[2] === '-' ? 0 : args[2], 'utf8');
      if (text.length > KEYWORD_IMPORT_TEXT_MAX)
        throw new Error(`the file is longer than ${KEYWORD_IMPORT_TEXT_MAX} characters`);
      const done = await keywords.importWords(name, action, text);
      console.log(`${done.list.name} (id ${done.list.id}): ${done.added} added, ${done.existing} already there`);
      for (const w of done.invalid) console.log(`not a keyword: ${w}`);
      return 0;
    }
    default: {
      const result = keywords.test(checked(ManageKeywordTestBody, { text: args.join(' ') }).text);
      console.log(JSON.stringify(result, null, 2));
      return 0;
    }
  }
}

/** `retention status|run`: the policy, what the last sweep did, and (run) a sweep now. */
async function runRetention(
  env: ReturnType<typeof loadConfig>,
  repos: ReturnType<typeof createRepos>,
  config: ConfigService,
  sweep: boolean,
): Promise<number> {
  const { messageDays, fileDays } = config.get().chatInfo;
  const days = (n: number) => (n > 0 ? `${n} days` : 'forever');
  console.log(`messages kept ${days(messageDays)}, files kept ${days(fileDays)} (groups may keep theirs shorter)`);
  const storage = await createStorage(env, (err) => console.error(`storage unavailable: ${err.message}`));
  const retention = new RetentionService(
    { repos, config, now: Date.now },
    new FileService({ repos, storage, now: Date.now }),
  );
  if (sweep) {
    const started = Date.now();
    let report = await retention.sweep();
    // Another node holds the lease: wait for it to finish and sweep after it.
    while (!report) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      report = await retention.sweep();
    }
    const s = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `swept in ${s} s: ${report.messages} messages deleted, ${report.expiredFiles} files expired, ` +
        `${report.freedFiles} stored files freed (${report.batches} batches)`,
    );
    return 0;
  }
  const last = await retention.lastSweep();
  console.log(
    last.last_end
      ? `last sweep ${new Date(last.last_start).toISOString()}: ${last.last_messages} messages deleted, ${last.last_files} files expired`
      : 'no sweep has run yet',
  );
  return 0;
}

/** Command-line arguments checked by the route's own schema, refused as the route would refuse them. */
function checked<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success)
    throw new AppError('Validation', {}, { fields: [...new Set(parsed.error.issues.map((i) => String(i.path[0])))] });
  return parsed.data;
}

/** A refusal of the admin service in English, naming the field it concerns. */
function explain(err: AppError): string {
  const fields = (err.data as { fields?: string[] } | null)?.fields ?? [];
  const text = translate('en', `errors.${err.name}`, err.params);
  return fields.length ? `${text} (${fields.join(', ')})` : text;
}

function describe(report: BackupReport): string {
  const db = report.integrity === undefined ? 'no database (PostgreSQL)' : `database integrity: ${report.integrity}`;
  if (report.bucket) return `${db}; no uploaded files: they are in the bucket ${report.bucket}`;
  return `${db}; ${report.uploads} uploaded files`;
}

async function runBackup(
  dataDir: string,
  databaseUrl: string | undefined,
  bucket: string | undefined,
  file: string,
): Promise<number> {
  const report = await backup({ dataDir, file, database: databaseUrl ? 'postgres' : 'sqlite', bucket });
  console.log(`backed up ${dataDir} to ${file}: ${describe(report)}`);
  if (bucket)
    console.log(
      `\nThe uploads stay in ${bucket}: copy or version that bucket with the store's own tools (e.g. \`aws s3 sync\`, \`rclone sync\`, bucket versioning).`,
    );
  if (databaseUrl) console.log(`\n${pgDumpAdvice(file, bucket)}`);
  return 0;
}

async function runRestore(dataDir: string, file: string): Promise<number> {
  const report = await restore({ dataDir, file });
  console.log(`restored ${file} (made ${report.manifest.createdAt}) into ${dataDir}: ${describe(report)}`);
  if (report.manifest.database === 'postgres')
    console.log('\nThe database was PostgreSQL: restore its dump with pg_restore before starting the server.');
  if (report.bucket) console.log(`\nThe uploads were in ${report.bucket}: start the server with the same STORAGE_URL.`);
  return 0;
}

async function runUpgrade(dataDir: string, databaseUrl: string | undefined, check: boolean): Promise<number> {
  const opened = openDb({ databaseUrl, dataDir });
  try {
    if (!check) {
      const { applied, backup } = await migrate(opened, { log: (line) => console.error(line) });
      if (!applied.length) console.log('the database is up to date: nothing to migrate');
      else console.log(`upgraded to ${applied.at(-1)}: ${applied.length} migrations applied`);
      if (backup) console.log(`the database as it was before is in ${backup}`);
      return 0;
    }
    const found = await checkUpgrade(opened);
    console.log(describeCheck(found, databaseUrl ? 'postgres' : 'sqlite'));
    return found.unknown.length || found.steps.some((s) => s.outcome !== 'ok') ? 1 : 0;
  } finally {
    await opened.close();
  }
}

function describeCheck(found: UpgradeCheck, database: 'sqlite' | 'postgres'): string {
  const lines = [`the database is at ${found.current ?? '(no migration)'}; this Sparrow's newest is ${found.latest}`];
  if (found.unknown.length) {
    lines.push(
      `refused: the database ran ${found.unknown.join(', ')}, which this version does not know (a newer Sparrow's).`,
      'Sparrow never migrates a database back: run that newer version, or restore a backup taken before it.',
    );
    return lines.join('\n');
  }
  if (!found.steps.length) return [...lines, 'nothing to migrate'].join('\n');
  const where =
    database === 'sqlite'
      ? 'on a copy of the database'
      : 'in one transaction, rolled back (its locks held meanwhile, a lock a server holds waited for 5 s at most)';
  lines.push(`${found.steps.length} migrations pending, run ${where}:`);
  for (const step of found.steps) {
    const took = step.ms === undefined ? '' : ` (${step.ms} ms)`;
    lines.push(`  ${step.outcome.padEnd(9)} ${step.name}${took}${step.error ? `: ${step.error}` : ''}`);
  }
  const failed = found.steps.find((s) => s.outcome === 'failed');
  lines.push(
    failed
      ? `${failed.name} fails: upgrading now would stop there (on SQLite with the copy in DATA_DIR/${BACKUPS_DIR}/).`
      : 'every pending migration succeeds.',
    'The live database was not changed.',
  );
  return lines.join('\n');
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err instanceof AppError ? explain(err) : err instanceof Error ? err.message : err);
    process.exitCode = 1;
  },
);
