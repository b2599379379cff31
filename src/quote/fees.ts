import type { Address } from 'viem'
import type { ChainConfig } from '../chains/types.js'
import type { NormalizedIntent } from './types.js'

/** Fee rates are in units of 1e-7 of the base (1 bps = 1000), so the service fee's fractional bps are exact. */
export const FEE_RATE_DENOMINATOR = 10_000_000n

/** A fee taken on the input or gross output: `floor(base * rate / 1e7)`. */
export type FeeShare = { recipient: Address; rate: bigint }

/** Per-app fee configuration a host attaches to issued app ids. */
export type AppConfig = {
  /** Service fee in bps (fractions allowed, e.g. 2.5); replaces the default `surplusFeeBps / 1000`. */
  serviceFeeBps?: number
  /** Default integrator fee when the request sets none. */
  feeBps?: number
  feeRecipient?: Address
}

/** The fees of one quote: which side pays, the shares, and how surplus is split. */
export type FeePlan = {
  side: 'input' | 'output'
  shares: FeeShare[]
  surplusRecipient: Address | null
  surplusBps: number
  treasury: Address | null
}

/**
 * Which side pays the fees (decisions.md §6): the major side when exactly one side is a major token
 * of the chain; the buy side when neither is, or when both are, unless the buy token is the native
 * token, then the sell side (ETH→USDC pays in USDC, USDC→ETH in USDC, USDC→WETH in WETH). Addresses
 * are wrapped; `nativeOut` says whether the buy token is the native token itself.
 *
 * @example
 * getFeeSide(base, usdc, weth, false) // 'output': USDC→WETH pays in WETH
 * getFeeSide(base, usdc, weth, true) // 'input': USDC→ETH pays in USDC
 */
export function getFeeSide(chain: ChainConfig, tokenIn: Address, tokenOut: Address, nativeOut: boolean): 'input' | 'output' {
  const majorIn = chain.majorTokens.includes(tokenIn)
  const majorOut = chain.majorTokens.includes(tokenOut)
  if (majorIn && majorOut) return nativeOut ? 'input' : 'output'
  return majorIn ? 'input' : 'output'
}

/**
 * The fee plan of an intent: integrator and referral fees as requested, the
 * service fee (`surplusFeeBps / 1000` bps, or the app's override) only when
 * the chain has a treasury, and the surplus split.
 */
export function buildFeePlan(
  intent: NormalizedIntent,
  chain: ChainConfig,
  side: 'input' | 'output',
  app: AppConfig | undefined,
): FeePlan {
  const shares: FeeShare[] = []
  const integrator = intent.fee ?? (app?.feeBps && app.feeRecipient ? { bps: app.feeBps, recipient: app.feeRecipient } : null)
  if (integrator && integrator.bps > 0) shares.push({ recipient: integrator.recipient, rate: BigInt(integrator.bps) * 1000n })
  if (intent.referralFee && intent.referralFee.bps > 0)
    shares.push({ recipient: intent.referralFee.recipient, rate: BigInt(intent.referralFee.bps) * 1000n })
  const treasury = chain.treasury ?? null
  if (treasury) {
    const serviceRate =
      app?.serviceFeeBps !== undefined
        ? BigInt(Math.round(app.serviceFeeBps * 1000))
        : BigInt(intent.surplusFee?.bps ?? 0) // surplusFeeBps / 1000 bps = surplusFeeBps / 1e7
    if (serviceRate > 0n) shares.push({ recipient: treasury, rate: serviceRate })
  }
  return {
    side,
    shares,
    surplusRecipient: intent.surplusFee?.recipient ?? null,
    surplusBps: intent.surplusFee?.bps ?? 0,
    treasury,
  }
}

/** Each share's fee on `base`. */
export function feeAmounts(shares: readonly FeeShare[], base: bigint): bigint[] {
  return shares.map((s) => (base * s.rate) / FEE_RATE_DENOMINATOR)
}

/** `base` less every share's fee. */
export function afterFees(shares: readonly FeeShare[], base: bigint): bigint {
  let rest = base
  for (const fee of feeAmounts(shares, base)) rest -= fee
  return rest
}
