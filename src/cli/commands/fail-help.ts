/** Help text of `--fail`, shared by topo, run, compare and traffic (its own module: `traffic` need not load the collectives to print it). */
export const FAIL_HELP = 'failed links/routers: links=5%,seed=3 | links=12 | routers=2% | cut=3-7/8-9 (node ids) | down=5/9 (docs/failures.md)';
