// Seed 004: DCE and MDCE networks (spec/seed004_mdce.md). Importing families.ts registers
// the dce, cbanyan, ccc and mdce families.
export * from './network.js';
export * from './families.js';
export * from './formulas.js';
export * from './table1.js';
export * from './circular-omega.js';
