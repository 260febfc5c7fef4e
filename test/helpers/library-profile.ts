// A library profile with two branches, item and patron types, rules, holds and blocks: what the
// profile tests apply, and the branches' tests serve.
export const LIBRARY = `
timeZone: Pacific/Auckland
branches:
  - id: 1
    name: Central
    locations:
      - { code: cen, name: Central, pickup: true, holdShelfDays: 5, openDays: [mon, tue, wed, thu, fri], closedDates: ['2026-11-10', '2026-12-25'] }
      - { code: hunt-audio, name: Hunt audio room }
  - id: 7
    name: Riverside
    address: 2 River Rd
    locations:
      - { code: riv, name: Riverside, pickup: true }
itemTypes:
  - { code: book, name: Book }
  - { code: dvd, name: DVD }
  - { code: reference-only-items, name: Reference }
patronTypes:
  - { code: 0, name: Adult }
  - { code: 9, name: Visitor }
circulationRules:
  - { loanDays: 14, renewals: 2, holdable: true, finePerDay: 0.2, graceDays: 1 }
  - { itemType: dvd, loanDays: 3, finePerDay: 1, maxFine: 5 }
  - { patronType: 9, loanDays: 7, holdLimit: 1 }
  - { patronType: 9, itemType: dvd, loanDays: 2 }
  - { location: hunt-audio, loanDays: 1 }
  - { itemType: reference-only-items, holdable: false }
holds: { limit: 4, neededByMonths: 2 }
blocks: { moneyOwed: 10, overdueItems: 2 }
`;
