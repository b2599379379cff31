// The system programs two suites drive, installed when missing so that `npm test` passes on a bare
// Debian machine that has only Node and npm:
//   chromium           the wallet page test (test/web) runs the page in headless Chromium
//   redis-server       the server's shared rate limits are tested against a real Redis (test/server)
//   fonts-dejavu-core  a font, so Chromium renders the page's text (and its screenshot) at all
// Neither ships as a binary in an npm package that runs on Debian, so they come from apt-get, and
// only when the process may install (root, or password-less sudo). Otherwise, or off Debian, this
// prints what to install by hand and the two suites fail with their own message.
//
// Used two ways: as vitest's globalSetup (vitest.config.ts), so `npm test` and `npx vitest run
// <file>` both install before any test starts; and as `tsx scripts/installTestTools.ts` (.ci/run).
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** Where the wallet test looks for Chromium (the same default as test/web/wallet.test.ts). */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/** What the Redis tests start (the same default as test/server/support/redis.ts). */
const REDIS_BINARY = process.env.REDIS_SERVER ?? 'redis-server'
/** The Debian font package Chromium needs to draw text. */
const FONT_PACKAGE = 'fonts-dejavu-core'
const FONT_FILE = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'
/** apt-get waits this long for another apt-get (say a second test run) to release its lock. */
const APT_LOCK_TIMEOUT_SECONDS = 600

/** Whether `program` (a path, or a name looked up on PATH) exists. */
function isInstalled(program: string): boolean {
  if (program.includes('/')) return existsSync(program)
  return (process.env.PATH ?? '').split(delimiter).some((folder) => folder !== '' && existsSync(join(folder, program)))
}

/** The Debian packages still missing, in install order. */
export function getMissingTestPackages(): string[] {
  const missing: string[] = []
  if (!isInstalled(CHROMIUM_PATH)) missing.push('chromium')
  if (!isInstalled(REDIS_BINARY)) missing.push('redis-server')
  if (missing.includes('chromium') && !existsSync(FONT_FILE)) missing.push(FONT_PACKAGE)
  return missing
}

/** How to run apt-get here: directly as root, through password-less sudo, or not at all. */
function getAptGetCommand(): string[] | null {
  if (!isInstalled('apt-get')) return null
  if (process.getuid?.() === 0) return ['apt-get']
  if (isInstalled('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0) return ['sudo', '-n', 'apt-get']
  return null
}

function runAptGet(command: string[], args: string[]): void {
  const [program, ...prefix] = command as [string, ...string[]]
  const lockOption = ['-o', `DPkg::Lock::Timeout=${APT_LOCK_TIMEOUT_SECONDS}`]
  // dpkg's progress lines are noise in a test run: kept, and printed only when apt-get fails.
  const result = spawnSync(program, [...prefix, ...lockOption, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  })
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.slice(-4000)
    throw new Error(`${command.join(' ')} ${args.join(' ')} failed (exit ${result.status ?? result.signal}):\n${output}`)
  }
}

/**
 * Installs chromium, redis-server and a font with apt-get when they are missing and this process
 * may install; prints what it installs (or what to install by hand) and how long it took.
 *
 * @returns the packages it installed (empty when nothing was missing or it could not install)
 * @example
 * installTestTools() // ['chromium', 'redis-server', 'fonts-dejavu-core'] on a bare machine, [] after
 */
export function installTestTools(): string[] {
  const missing = getMissingTestPackages()
  if (missing.length === 0) return []
  const aptGet = getAptGetCommand()
  if (!aptGet) {
    console.warn(
      `weft tests: ${missing.join(', ')} missing and cannot be installed here (needs apt-get as root or with password-less sudo). ` +
        'Install them by hand, or point CHROMIUM_PATH / REDIS_SERVER at your binaries: the wallet-page and Redis suites fail without them.',
    )
    return []
  }
  console.log(`weft tests: installing ${missing.join(', ')} with ${aptGet.join(' ')} (the wallet-page and Redis suites need them)`)
  const started = performance.now()
  runAptGet(aptGet, ['update', '-qq'])
  runAptGet(aptGet, ['install', '-y', '-qq', '--no-install-recommends', ...missing])
  console.log(`weft tests: installed ${missing.join(', ')} in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  return missing
}

/** vitest globalSetup: runs once before any test file. */
export default function setup(): void {
  installTestTools()
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) installTestTools()
