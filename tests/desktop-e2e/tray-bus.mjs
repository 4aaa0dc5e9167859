// The app's tray as a StatusNotifier host sees it. scripts/desktop-e2e runs
// a StatusNotifierWatcher and a host (gtk-sni-tray-standalone) in the app's
// private D-Bus session; the app's libayatana-appindicator registers its
// item with the watcher and exports its menu over com.canonical.dbusmenu.
// This module reads the item (icon, menu) and clicks menu items exactly as a
// host does when the user picks one, through `busctl` (systemd's D-Bus
// client, no npm package needed), and finds the app's process and bus.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Every live process as {pid, ppid, name}, read from /proc. */
export function processes() {
  const list = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // it ended meanwhile
    }
    // The name may hold spaces and parentheses: fields start after the last ')'.
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state !== 'Z') list.push({ pid: Number(entry), ppid: Number(ppid), name });
  }
  return list;
}

/** A process's environment as a Map. */
export function environOf(pid) {
  const vars = new Map();
  for (const entry of fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) vars.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  return vars;
}

/** The hookd-desktops whose daemon is on `socket` (the app under test: this run's socket). */
export function appPids(socket = process.env.HOOKD_SOCKET) {
  return processes()
    .filter((p) => p.name === 'hookd-desktop')
    .filter((p) => {
      try {
        return environOf(p.pid).get('HOOKD_SOCKET') === socket;
      } catch {
        return false;
      }
    })
    .map((p) => p.pid);
}

/** The app under test: the one hookd-desktop whose daemon owns this run's socket. */
export function appPid(socket = process.env.HOOKD_SOCKET) {
  const found = appPids(socket);
  assert.equal(found.length, 1, `one hookd-desktop on ${socket}, found ${found.length}`);
  return found[0];
}

/** Waits until `condition()` (may be async) is truthy; returns its value. */
export async function until(condition, what, timeout = 15000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `busctl --json=short ARGS` on the bus at `address`; its JSON answer. */
export function busctl(address, args) {
  const out = spawnSync('busctl', [`--address=${address}`, '--json=short', ...args], {
    encoding: 'utf8',
    timeout: 10000,
  });
  if (out.status !== 0) throw new Error(`busctl ${args.join(' ')}: ${out.stderr || out.error}`);
  return out.stdout.trim() ? JSON.parse(out.stdout) : null;
}

const WATCHER = ['org.kde.StatusNotifierWatcher', '/StatusNotifierWatcher'];
const ICONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../icons');

/** The RGBA pixels of a PNG, hashed (ImageMagick decodes it). */
function pixelHash(file) {
  const out = spawnSync('convert', [file, '-depth', '8', 'rgba:-'], { maxBuffer: 1 << 24, timeout: 10000 });
  assert.equal(out.status, 0, `convert ${file}: ${out.stderr}`);
  return crypto.createHash('sha256').update(out.stdout).digest('hex');
}

/** The app's icon states by the pixels of icons/tray-*.png. */
const LOOKS = new Map(
  ['recording', 'paused', 'error'].map((look) => [pixelHash(path.join(ICONS, `tray-${look}.png`)), look]),
);

/** A menu node: {id, label, enabled, type, toggleType, toggleState, children}. */
function node([id, props, children]) {
  const prop = (name, fallback) => (name in props ? props[name].data : fallback);
  return {
    id,
    label: prop('label', ''),
    enabled: prop('enabled', true),
    visible: prop('visible', true),
    type: prop('type', 'standard'),
    toggleType: prop('toggle-type', ''),
    toggleState: prop('toggle-state', -1),
    children: children.map((child) => node(child.data)),
  };
}

/** The app's StatusNotifierItem on a session bus. */
export class TrayItem {
  constructor(address, service, objectPath) {
    this.address = address;
    this.service = service;
    this.path = objectPath;
  }

  /**
   * Waits until the app `pid` has an item registered with the watcher on its
   * session bus (the one in its environment, unless `address` is given).
   */
  static async of(pid, { address = environOf(pid).get('DBUS_SESSION_BUS_ADDRESS'), timeout = 15000 } = {}) {
    assert.ok(address, `hookd-desktop ${pid} has no DBUS_SESSION_BUS_ADDRESS`);
    const service = await until(
      () => {
        let items;
        try {
          items = busctl(address, ['get-property', ...WATCHER, 'org.kde.StatusNotifierWatcher', 'RegisteredStatusNotifierItems']).data;
        } catch {
          return null; // no watcher (yet)
        }
        return items.find((name) => {
          try {
            const owner = busctl(address, ['call', 'org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'GetConnectionUnixProcessID', 's', name.split('/')[0]]);
            return owner.data[0] === pid;
          } catch {
            return false;
          }
        });
      },
      `hookd-desktop ${pid}'s tray item registered with the StatusNotifierWatcher`,
      timeout,
    );
    // Items registered by bus name only: the watcher knows their object path.
    const objectPath = service.includes('/')
      ? service.slice(service.indexOf('/'))
      : busctl(address, ['call', ...WATCHER, 'org.kde.StatusNotifierWatcher', 'GetObjectPathForItemName', 's', service]).data[0];
    return new TrayItem(address, service.split('/')[0], objectPath);
  }

  /** Whether a StatusNotifier host (a visible tray) registered with the watcher. */
  hostRegistered() {
    return busctl(this.address, ['get-property', ...WATCHER, 'org.kde.StatusNotifierWatcher', 'IsStatusNotifierHostRegistered']).data;
  }

  /** The item's org.kde.StatusNotifierItem properties, plain values. */
  properties() {
    const all = busctl(this.address, ['call', this.service, this.path, 'org.freedesktop.DBus.Properties', 'GetAll', 's', 'org.kde.StatusNotifierItem']).data[0];
    return Object.fromEntries(Object.entries(all).map(([key, value]) => [key, value.data]));
  }

  /** The icon file the host shows (an absolute IconName, or one in IconThemePath). */
  iconFile() {
    const props = this.properties();
    const name = props.IconName;
    if (path.isAbsolute(name)) return name;
    return path.join(props.IconThemePath, name.endsWith('.png') ? name : `${name}.png`);
  }

  /** Which of the app's icons the host shows: recording, paused, error (or unknown). */
  look() {
    try {
      return LOOKS.get(pixelHash(this.iconFile())) ?? 'unknown';
    } catch {
      return 'unknown'; // the file was replaced between reading its name and its pixels
    }
  }

  /** The whole menu, as a host reads it before showing it. */
  menu() {
    const layout = busctl(this.address, ['call', this.service, this.properties().Menu, 'com.canonical.dbusmenu', 'GetLayout', 'iias', '0', '--', '-1', '0']).data;
    return node(layout[1]);
  }

  /** The menu's items, depth first, submenus' after their parent. */
  items() {
    const all = [];
    const walk = (n) => {
      for (const child of n.children) {
        all.push(child);
        walk(child);
      }
    };
    walk(this.menu());
    return all;
  }

  /** The visible item whose label matches `label` (a string: equal; a RegExp). */
  find(label) {
    const matches = (l) => (label instanceof RegExp ? label.test(l) : l === label);
    return this.items().find((item) => item.visible && item.type !== 'separator' && matches(item.label));
  }

  /** Waits for the item `label` (e.g. until the refresher added it). */
  async waitFor(label, what = `the tray menu item ${label}`, timeout = 15000) {
    return until(() => this.find(label), what, timeout);
  }

  /**
   * Clicks the item `label` as a host does when the user picks it. The app
   * rebuilds its menu when what it shows changes (a new recent change), and
   * a click on an item of the menu before is refused; then the item is
   * looked up again, as a host would after the layout-updated signal.
   */
  async click(label) {
    for (let attempt = 1; ; attempt++) {
      const item = this.find(label);
      assert.ok(item, `no tray menu item ${label}; the menu has ${this.items().map((i) => JSON.stringify(i.label)).join(', ')}`);
      assert.ok(item.enabled, `the tray menu item ${label} is disabled`);
      try {
        busctl(this.address, [
          'call', this.service, this.properties().Menu, 'com.canonical.dbusmenu', 'Event', 'isvu',
          String(item.id), 'clicked', 's', '', String(Math.floor(Date.now() / 1000) >>> 0),
        ]);
        return item;
      } catch (err) {
        if (attempt >= 5 || !/does not refer to a menu item/.test(String(err))) throw err;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }
}

/**
 * Clicks the item `label` of `tray` until `effect()` holds (at most 3
 * clicks, 5 s each). A click that lands while the app rebuilds its menu (a
 * new recent change, the refresher) can be lost without an error; a host
 * shows the menu again and the user clicks again. Only for an item whose
 * label goes away with its effect (Pause recording → Resume recording), so a
 * click whose effect was merely slow is never repeated.
 */
export async function clickUntil(tray, label, effect, what) {
  for (let attempt = 1; ; attempt++) {
    await tray.click(label);
    try {
      return await until(effect, what, 5000);
    } catch (err) {
      if (attempt >= 3 || !tray.find(label)) throw err;
    }
  }
}

/** The StatusNotifier host (gtk-sni-tray-standalone) on the bus at `address`. */
export function hostPid(address) {
  const host = processes().find((p) => {
    if (!p.name.startsWith('gtk-sni-tray')) return false;
    try {
      return environOf(p.pid).get('DBUS_SESSION_BUS_ADDRESS') === address;
    } catch {
      return false;
    }
  });
  return host?.pid;
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const xdotool = (...args) => spawnSync('xdotool', args, { encoding: 'utf8', timeout: 10000 });
const ICON_SIZE = 48;

/**
 * Opens the item's menu in its session's host as a user does: a right click
 * on the icon. There is no window manager under Xvfb: the tray's window is
 * placed at the top right, above the app's window.
 */
async function openHostMenu(tray) {
  const host = hostPid(tray.address);
  assert.ok(host, 'a StatusNotifier host runs in the app session');
  const bar = xdotool('search', '--onlyvisible', '--pid', String(host)).stdout.trim().split('\n')[0];
  assert.ok(bar, 'the tray host has a window on the display');
  xdotool('windowsize', bar, String(ICON_SIZE), String(ICON_SIZE));
  xdotool('windowmove', bar, String(1280 - ICON_SIZE - 4), '4');
  xdotool('windowraise', bar);
  await pause(500);
  xdotool('mousemove', String(1280 - ICON_SIZE / 2 - 4), String(4 + ICON_SIZE / 2), 'click', '3');
  await pause(1000);
}

/**
 * Where the host draws the top-level item `label` of the open menu: it opens
 * below the icon, its right edge at the screen's, items about 25 px high
 * (separators 1 px), the first one some 60 px down.
 */
function menuItemY(tray, label) {
  const top = tray.menu().children.filter((i) => i.visible);
  const index = top.findIndex((i) => i.label === label);
  assert.ok(index >= 0, `no ${label} in the menu`);
  return 4 + ICON_SIZE + 12 + top.slice(0, index).reduce((h, i) => h + (i.type === 'separator' ? 1 : 25), 0) + 5;
}

/** Picks the top-level item `label` with the mouse in the host's menu, as a user does. */
export async function hostClick(tray, label) {
  await openHostMenu(tray);
  xdotool('mousemove', '1150', String(menuItemY(tray, label)), 'click', '1');
  await pause(300);
}

/**
 * Shows the host's tray with the item's menu open on the display (see
 * openHostMenu) and saves it as $HOOKD_E2E_SCREENSHOTS/NAME.png; with
 * `submenu`, that item's submenu open too.
 */
export async function trayShot(tray, name, { submenu } = {}) {
  await openHostMenu(tray);
  if (submenu) {
    xdotool('mousemove', '1150', String(menuItemY(tray, submenu)));
    await pause(1000);
  }
  const file = path.join(process.env.HOOKD_E2E_SCREENSHOTS, `${name}.png`);
  const crop = submenu ? '760x330+520+0' : '400x260+880+0';
  const out = spawnSync('import', ['-window', 'root', '-crop', crop, '+repage', file], { timeout: 15000 });
  assert.equal(out.status, 0, `screenshot failed: ${out.stderr}`);
  xdotool('key', 'Escape');
  if (submenu) xdotool('key', 'Escape');
  await pause(300);
}
