import { loadConfig } from './config';
import { migrate, openDb } from './db';
import { AdminService } from './modules/system/admin';
import { ConfigService } from './modules/system/config-service';
import { createRepos } from './repos';

const USAGE = `npm run admin -- <command>

  config get [path]                       show the configuration (or one setting)
  config set <path> <value>               change a setting, e.g. config set chatInfo.redoTime 600
  user create <account> <password> [name] [--admin]
  user disable <account>                  disable a user and end all their sessions
  user enable <account>
  user role <account> admin|user
  invite create [uses=1] [days=7]         make an invite code (for sysInfo.regtype 2)
  announce "<title>" "<text>"             publish a system announcement to everyone

Running servers pick up configuration changes within a few seconds and push them as updateConfig.`;

async function main(argv: string[]): Promise<number> {
  const [area, verb, ...args] = argv;
  if (!area || area === 'help' || area === '--help') {
    console.log(USAGE);
    return area ? 0 : 1;
  }
  const env = loadConfig();
  const opened = openDb({ databaseUrl: env.databaseUrl, dataDir: env.dataDir });
  try {
    await migrate(opened);
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
      console.log(`announcement ${await admin.announce(title, text)} published`);
      return 0;
    }
    switch (`${area} ${verb ?? ''}`) {
      case 'config get':
        console.log(JSON.stringify(admin.getConfig(args[0]), null, 2));
        break;
      case 'config set':
        need(2);
        console.log(JSON.stringify(await admin.setConfig(args[0]!, args.slice(1).join(' ')), null, 2));
        break;
      case 'user create': {
        need(2);
        const positional = args.filter((a) => !a.startsWith('--'));
        const id = await admin.createUser(
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
        await admin.setStatus(args[0]!, verb === 'enable');
        console.log(`${verb}d ${args[0]}`);
        break;
      case 'user role':
        need(2);
        if (args[1] !== 'admin' && args[1] !== 'user') throw new Error('role is admin or user');
        await admin.setRole(args[0]!, args[1]);
        console.log(`${args[0]} is now ${args[1]}`);
        break;
      case 'invite create':
        console.log(await admin.createInvite(Number(args[0] ?? 1), Number(args[1] ?? 7)));
        break;
      default:
        console.error(`unknown command: ${area} ${verb ?? ''}\n\n${USAGE}`);
        return 1;
    }
    return 0;
  } finally {
    await opened.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  },
);
