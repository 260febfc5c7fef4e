// Whether an invoice's totals agree with its lines, in exact decimals (the decimal.js values of
// src/shared/money.ts, as invoices are figured elsewhere in Carrel):
//   sum of the lines' MOA+203                                   = MOA+79 (total line items), when sent
//   MOA+79 (else the lines' sum) + charges − allowances + tax   = MOA+86 (message total), when sent,
//                                                                 else MOA+9 (amount due)
// Charges and allowances are the message-level ALC groups (before the first line; else those in the
// summary): a line's own allowances are already inside its MOA+203. The tax is MOA+176 (total tax)
// in the summary, else the summary's MOA+124, else the summary TAX groups' MOA+124, else the lines'.
import { Decimal, sum, ZERO } from '../shared/money.ts';
import { byQualifier, type AllowanceCharge, type Amount } from './body.ts';
import type { Invoice } from './invoice.ts';
import { describeAt, problemAt, type EdifactProblem } from './problems.ts';

export interface BalanceFigures {
  /** Sum of the lines' MOA+203. */
  lines: string;
  charges: string;
  allowances: string;
  tax: string;
  /** What the message total (or the amount due) should be. */
  expected: string;
}

export interface Balance {
  ok: boolean;
  /** Each names the MOA that disagrees (or the line that has no amount). */
  problems: EdifactProblem[];
  figures: BalanceFigures;
}

/** An ALC group's amount: MOA+8, else 204 (allowance), else 23 (charge); zero when none is sent. */
function alcAmount(alc: AllowanceCharge): Decimal {
  const amount = byQualifier(alc.amounts, '8') ?? byQualifier(alc.amounts, alc.kind === 'allowance' ? '204' : '23');
  return amount ? new Decimal(amount.value) : ZERO;
}

const amountsOf = (list: readonly { amounts: Amount[] }[], qualifier: string) =>
  list.flatMap((g) => g.amounts.filter((a) => a.qualifier === qualifier));
const total = (amounts: readonly Amount[]) => sum(amounts.map((a) => new Decimal(a.value)));

function taxTotal(invoice: Invoice): Decimal {
  const summary = invoice.summary;
  const stated = byQualifier(summary.amounts, '176') ?? byQualifier(summary.amounts, '124');
  if (stated) return new Decimal(stated.value);
  const grouped = amountsOf(summary.taxes, '124');
  if (grouped.length > 0) return total(grouped);
  return total(
    amountsOf(
      invoice.lines.flatMap((l) => l.taxes),
      '124',
    ),
  );
}

/** Checks an invoice's totals against its lines (see the rule above). Never throws. */
export function balance(invoice: Invoice): Balance {
  const problems: EdifactProblem[] = [];
  const disagree = (amount: Amount, expected: Decimal, what: string) =>
    problems.push(
      problemAt(
        'balance',
        amount.at,
        `${describeAt(amount.at)}: MOA+${amount.qualifier} is ${amount.value} but ${what} come to ${expected.toString()}`,
      ),
    );
  const lineAmounts: Decimal[] = [];
  for (const line of invoice.lines) {
    if (line.lineAmount) lineAmounts.push(new Decimal(line.lineAmount.value));
    else
      problems.push(problemAt('balance', line.item.at, `${describeAt(line.item.at)}: line ${line.lineNumber} has no MOA+203 line amount`));
  }
  const lines = sum(lineAmounts);
  const messageLevel = invoice.allowances.length > 0 ? invoice.allowances : invoice.summary.allowances;
  const charges = sum(messageLevel.filter((a) => a.kind === 'charge').map(alcAmount));
  const allowances = sum(messageLevel.filter((a) => a.kind === 'allowance').map(alcAmount));
  const tax = taxTotal(invoice);
  const summary = invoice.summary.amounts;
  const lineTotal = byQualifier(summary, '79');
  if (lineTotal && !lines.equals(lineTotal.value)) disagree(lineTotal, lines, 'the lines’ MOA+203');
  const base = lineTotal ? new Decimal(lineTotal.value) : lines;
  const expected = base.plus(charges).minus(allowances).plus(tax);
  const stated = byQualifier(summary, '86') ?? byQualifier(summary, '9');
  if (stated === undefined) {
    const at = invoice.summary.at ?? invoice.at;
    problems.push(
      problemAt(
        'balance',
        at,
        `${describeAt(at)}: the summary has neither MOA+86 (message total) nor MOA+9 (amount due) to check the lines against`,
      ),
    );
  } else if (!expected.equals(stated.value)) {
    disagree(
      stated,
      expected,
      `line items ${base.toString()} + charges ${charges.toString()} − allowances ${allowances.toString()} + tax ${tax.toString()}`,
    );
  }
  return {
    ok: problems.length === 0,
    problems,
    figures: {
      lines: lines.toString(),
      charges: charges.toString(),
      allowances: allowances.toString(),
      tax: tax.toString(),
      expected: expected.toString(),
    },
  };
}
