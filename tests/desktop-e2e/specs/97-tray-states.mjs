// tray states: the icon's error state follows its cause, seen through a
// StatusNotifier watcher as a tray host sees it (../tray-bus.mjs). Each case
// runs a second hookd-desktop (--hidden: tray only) with files, socket and a
// D-Bus session of its own, so the session's app is left as it is:
// - publishing to a broker that is down: error; once the broker is
//   reachable: recording; when it goes away again: error;
// - attached to another daemon: paused while that daemon records; error
//   once it is gone.
// See run.mjs for the context every spec receives.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { TrayItem, appPids, hostPid, trayShot, until } from '../tray-bus.mjs';

/** Files and environment for a hookd of its own under WORK/NAME. */
function ownEnv(WORK, name, extra = {}) {
  const root = path.join(WORK, name);
  for (const dir of ['home', 'config', 'data', 'cache', 'state']) fs.mkdirSync(path.join(root, dir), { recursive: true });
  fs.mkdirSync(path.join(root, 'run'), { recursive: true, mode: 0o700 });
  return {
    ...process.env,
    HOME: path.join(root, 'home'),
    XDG_CONFIG_HOME: path.join(root, 'config'),
    XDG_DATA_HOME: path.join(root, 'data'),
    XDG_CACHE_HOME: path.join(root, 'cache'),
    XDG_STATE_HOME: path.join(root, 'state'),
    XDG_RUNTIME_DIR: path.join(root, 'run'),
    HOOKD_SOCKET: path.join(root, 'run', 'hookd.sock'),
    HOOKD_DATA_DIR: path.join(root, 'data', 'hookd'),
    HOOKD_HOME: path.join(root, 'home', '.hookd'),
    ...extra,
  };
}

/**
 * Starts hookd-desktop --hidden in a D-Bus session of its own with a
 * StatusNotifierWatcher (and, with `host`, a visible tray); returns its tray
 * item and how to stop it.
 */
async function startTrayApp(APP, env, log, { host = false } = {}) {
  const tray = host ? 'gtk-sni-tray-standalone --no-strut &' : '';
  const child = spawn(
    'dbus-run-session',
    ['--', 'bash', '-c', `status-notifier-watcher & gdbus wait --session --timeout 10 org.kde.StatusNotifierWatcher; ${tray} exec "$0" --hidden`, APP],
    { env, detached: true, stdio: ['ignore', fs.openSync(log, 'w'), fs.openSync(log, 'a')] },
  );
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  try {
    const pid = await until(() => appPids(env.HOOKD_SOCKET)[0], `hookd-desktop on ${env.HOOKD_SOCKET} (see ${log})`);
    return { pid, tray: await TrayItem.of(pid), stop };
  } catch (err) {
    stop();
    throw err;
  }
}

/** A TCP relay to the broker on 127.0.0.1:5672 that can be switched on and off. */
class BrokerRelay {
  constructor(port) {
    this.port = port;
    this.sockets = new Set();
    this.server = null;
  }

  async start() {
    this.server = net.createServer((client) => {
      const broker = net.connect(5672, '127.0.0.1');
      for (const s of [client, broker]) {
        this.sockets.add(s);
        s.on('error', () => {});
        s.on('close', () => {
          this.sockets.delete(s);
          client.destroy();
          broker.destroy();
        });
      }
      client.pipe(broker).pipe(client);
    });
    await new Promise((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
  }

  /** Closes the port and every connection through it: the broker is gone. */
  async stop() {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const brokerUp = () =>
  new Promise((resolve) => {
    const s = net.connect(5672, '127.0.0.1');
    s.on('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });

export default async function ({ test, WORK, APP, EMIT }) {
  await test('tray icon: error while the broker is down, recording once it is reachable, error when it goes away', async () => {
    assert.ok(await brokerUp(), 'a RabbitMQ broker on 127.0.0.1:5672 (scripts/setup starts one)');
    const relay = new BrokerRelay(await freePort());
    const env = ownEnv(WORK, 'tray-broker', {
      HOOKD_LEDGER_MODE: 'both',
      HOOKD_AMQP_URL: `amqp://guest:guest@127.0.0.1:${relay.port}/%2f`,
      HOOKD_AMQP_EXCHANGE: 'hookd.e2e.tray',
    });
    const app = await startTrayApp(APP, env, path.join(WORK, 'tray-broker.log'), { host: true });
    try {
      const line = () => app.tray.items()[0].label;
      await until(() => app.tray.look() === 'error', 'the error icon while the broker is unreachable', 20000);
      assert.match(line(), /^Recording; broker (disconnected|connecting)/);
      await until(() => hostPid(app.tray.address) && app.tray.hostRegistered(), 'its tray host');
      await trayShot(app.tray, 'tray-error');
      await relay.start();
      await until(() => app.tray.look() === 'recording', 'the recording icon once the broker is reachable', 45000);
      assert.equal(line(), 'Recording');
      await relay.stop();
      await until(() => app.tray.look() === 'error', 'the error icon once the broker is gone again', 20000);
      assert.match(line(), /broker (disconnected|connecting)/);
    } finally {
      app.stop();
      if (relay.server?.listening) await relay.stop();
    }
  });

  await test('tray icon: paused while attached to another daemon that records, error once that daemon is gone', async () => {
    const env = ownEnv(WORK, 'tray-attached');
    const hookd = path.join(path.dirname(EMIT), 'hookd');
    const daemon = spawn(hookd, ['daemon'], { env, stdio: ['ignore', 'ignore', fs.openSync(path.join(WORK, 'tray-attached-daemon.log'), 'w')] });
    let app;
    try {
      await until(() => fs.existsSync(env.HOOKD_SOCKET), 'the other daemon to listen');
      app = await startTrayApp(APP, env, path.join(WORK, 'tray-attached.log'));
      const line = () => app.tray.items()[0].label;
      await until(() => app.tray.look() === 'paused', 'the paused icon while attached');
      assert.equal(line(), 'Attached: another hookd daemon is recording');
      assert.equal(app.tray.find('Pause recording')?.enabled, false, 'no pausing a daemon the app does not own');
      daemon.kill('SIGTERM');
      await until(() => app.tray.look() === 'error', 'the error icon once the attached daemon is gone');
      assert.match(line(), /^Not recording: the daemon this app attached to is gone/);
    } finally {
      daemon.kill('SIGKILL');
      app?.stop();
    }
  });
}
