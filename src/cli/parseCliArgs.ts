/** How a command-line option is read: `string` takes the next word (or `=value`), `boolean` takes none. */
export type CliOptionKind = 'string' | 'boolean'

/** The options a command accepts, by long name (without `--`). */
export type CliOptionSpec = Readonly<Record<string, CliOptionKind>>

/** What {@link parseCliArgs} found: option values by long name, and the words that are not options. */
export type ParsedCliArgs = {
  values: Record<string, string | true>
  positionals: string[]
}

/**
 * A mistake in how the command line is written (unknown command or option, a
 * missing value, a flag given twice): the CLI prints it with the usage and
 * exits with code 2. Wrong *values* are `QuoteError`s instead (exit code 1).
 *
 * @example
 * parseCliArgs(['--bogus'], {}) // throws CliUsageError('unknown option --bogus')
 */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError'
}

/**
 * Reads `argv` (without the node and script paths) against `spec`.
 * Accepts `--name value`, `--name=value`, boolean `--name`, `-h` for `--help`,
 * and `--` to end the options. An option may be given once. Throws
 * {@link CliUsageError}, nothing else.
 *
 * @example
 * parseCliArgs(['quote', '--chain', 'base', '--json'], { chain: 'string', json: 'boolean' })
 * // { values: { chain: 'base', json: true }, positionals: ['quote'] }
 */
export function parseCliArgs(argv: readonly string[], spec: CliOptionSpec): ParsedCliArgs {
  const values: Record<string, string | true> = Object.create(null)
  const positionals: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!
    if (word === '--') {
      positionals.push(...argv.slice(i + 1))
      break
    }
    if (word === '-h') {
      take('help', undefined)
      continue
    }
    if (!word.startsWith('--')) {
      // A negative number is a value, never an option: `--slippageBps -5` reaches the range check.
      if (word.startsWith('-') && word.length > 1 && !/^-[0-9.]/.test(word)) throw new CliUsageError(`unknown option ${word}`)
      positionals.push(word)
      continue
    }
    const eq = word.indexOf('=')
    const name = eq < 0 ? word.slice(2) : word.slice(2, eq)
    const inline = eq < 0 ? undefined : word.slice(eq + 1)
    if (spec[name] === 'string' && inline === undefined) {
      const next = argv[i + 1]
      if (next === undefined || (next.startsWith('--') && next.length > 2)) throw new CliUsageError(`option --${name} needs a value`)
      i++
      take(name, next)
    } else {
      take(name, inline)
    }
  }
  return { values, positionals }

  function take(name: string, value: string | undefined): void {
    const kind = Object.hasOwn(spec, name) ? spec[name] : undefined
    if (kind === undefined) throw new CliUsageError(`unknown option --${name}`)
    if (Object.hasOwn(values, name)) throw new CliUsageError(`option --${name} is given twice`)
    if (kind === 'boolean') {
      if (value !== undefined) throw new CliUsageError(`option --${name} takes no value`)
      values[name] = true
      return
    }
    if (value === undefined) throw new CliUsageError(`option --${name} needs a value`)
    values[name] = value
  }
}
