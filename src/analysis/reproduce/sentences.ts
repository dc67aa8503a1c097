/**
 * The sentence catalogue (issue 27, docs/reproduce.md "Rules"): for every row of every seed, the
 * logical form of what it checks and, for a document row, the document's own sentence, figure or
 * table cell, verbatim in the original language, with its location and an English rendering.
 *
 * Kept apart from the seed modules so one file shows which sentence each row answers: a reviewer can
 * read the five documents against this list, and the test (test/report/sentences.test.ts) checks
 * that every quote occurs in the seed's text and that no two document rows quote the same one.
 * A patent claim is one grammatical sentence; its clauses (spec B's C1–C7) count as its sentences.
 * Table cells are quoted as "row label … values", the parts joined by " … ".
 */
import type { Claim, ClaimForm, SentenceQuote } from '../../report/checklist.js';

interface Sentence {
  readonly form: ClaimForm;
  readonly quote?: SentenceQuote;
}

/** An English document: the rendering is the sentence itself. */
const en = (location: string, original: string): SentenceQuote => ({ original, location, english: original });
const ja = (location: string, original: string, english: string): SentenceQuote => ({ original, location, english });

const SENTENCES: Readonly<Record<string, Sentence>> = {
  // Seed 000: US 2014/0201475 A1 (English).
  '000.correct': { form: 'property', quote: en('[0004]', 'an all-to-all communication process may be performed in which each node obtains from the other nodes data corresponding to the own node number stored in the other nodes') },
  '000.barriers.2d': { form: 'count', quote: en('[0068] (FIG. 12A, S107)', 'Thus, when the data transmissions in the X-axis direction from each node are completed (S105: Yes), the transmission destination and transmission data determination unit 12b proceeds with the process to S107 and performs a barrier synchronization.') },
  '000.barriers.fewer': { form: 'count', quote: en('[0050] (FIG. 9, the comparative example)', 'Thus, since the number of barrier synchronizations is large, the throughput of the communication routes is likely to be deteriorated.') },
  '000.faster': { form: 'ordering', quote: en('[0116] (the embodiment, claims 2 and 6: blocks split over routes)', 'In addition, since the number of barrier synchronizations in the all-to-all communication decreases, the overhead of the data transmissions due to the barrier synchronizations are reduced and the performance of the data transmission in the all-to-all communication is improved.') },
  '000.faster.example1': { form: 'ordering', quote: en('[0079] (Example 1)', 'Further, since the number of barrier synchronizations are reduced in the all-to-all communication, the overhead of the data transmissions due to the barrier synchronizations are reduced and the performance of the data transmission in the all-to-all communication is improved.') },
  '000.example2.nics': { form: 'ordering', quote: en('[0083] (Example 2)', 'In the data transmissions in the interconnect in the present example, each node may simultaneously transmit the data in each axis direction of X, Y and Z axes.') },
  '000.pacing': { form: 'ordering', quote: en('[0044]', 'As a result, the time for completing the all-to-all communication is reduced.') },
  '000.fig5.superposition': { form: 'exact', quote: en('[0039] (FIG. 5)', 'In the case as illustrated in FIG. 5, the degree of communication or link superposition on the communication routes between the node 3 and the node 4 is higher than the degrees of communication or link superposition on the communication routes between other nodes.') },
  '000.fig6.band-split': { form: 'exact', quote: en('[0041] (FIG. 6)', 'Therefore, as illustrated in FIG. 6, the ratio of the packets transmitted from the CPU of the node 3 occupying the communication route subsequent to the node 3 becomes higher than the ratio of the other packets.') },
  '000.deadlock.1d-torus': { form: 'property', quote: en('[0042] (FIG. 3, FIG. 6)', 'And, when each node evenly adjust between packets transmitted from the CPU of the own node and packets transferred from the outside of the own node as described above, a deadlock occurs on the communication route.') },
  '000.fig7.pacing': { form: 'property', quote: en('[0044] (FIG. 7)', 'Therefore, the packet waiting state is prevented on the communication route in which a communication superposition occurs.') },
  '000.fig8.uniform-routes': { form: 'exact', quote: en('[0046] (FIG. 8)', 'The diagram (indicated by "uniform") on the right hand side in FIG. 8 illustrates that the load is evenly put on each communication route.') },
  '000.noise.skew': { form: 'ordering' },
  '000.noise.jitter': { form: 'ordering' },
  '000.noise.os': { form: 'ordering' },
  '000.arbitration': { form: 'ordering' },
  // Seed 001: JP 2020-046713 A (Japanese); paragraph numbers as printed, lines of the seed text.
  '001.correct': { form: 'property', quote: ja('請求項1 (line 72)', '送信ノード受信ノードとの間を直接接続する直接リンクと、前記送信ノードと前記受信ノードとの間を、前記送信ノード、前記受信ノード以外の折り返しノードを経由して接続する1ホップリンク', 'a direct link connecting the sending node and the receiving node, and 1-hop links connecting them through turnaround nodes other than the sender and the receiver (claim 1: the data still reaches the receiver)') },
  '001.p2p.ratio': { form: 'ratio', quote: ja('[0024] (line 281, 図3)', 'これにより、本実施形態では、比較例よりもデータ通信時間を1/(N−1)に短縮できた。', 'As a result, this embodiment shortened the data communication time to 1/(N−1) of the comparative example.') },
  '001.p2p6.ratio': { form: 'ratio', quote: ja('[0107] (line 683, 図38)', '本実施形態によれば、図47に示した関連するフルメッシュ接続の場合よりも、1対1通信にかかる時間は1/K倍に短縮できた。', 'With this embodiment the time of a 1-to-1 communication was shortened to 1/K of the related full mesh of 図47.') },
  '001.mcast3.ratio': { form: 'ratio', quote: ja('[0058] (line 445, 図16)', 'これに対して、本実施形態では、送信ノードを含めた折り返しノードの数Kが最大値であるNのとき、1ホップリンクを活用することで、データサイズの大きいマルチキャスト通信の通信時間を約2/N倍に短縮できた。', 'In this embodiment, when the number K of turnaround nodes including the sender is at its maximum N, using the 1-hop links shortened the time of a large multicast to about 2/N.') },
  '001.mcast6.ratio': { form: 'ratio', quote: ja('[0109] (line 697, 図40)', '本実施形態によれば、図47に示した関連するフルメッシュネットワークの場合よりも、通信時間は1/K倍に短縮できた。', 'With this embodiment the communication time was shortened to 1/K of the related full-mesh network of 図47.') },
  '001.reduce4.ratio': { form: 'ratio', quote: ja('[0100] (line 643, 図35)', 'したがって、比較例よりも通信時間を約2/Nに短縮することができた。', 'Hence the communication time (reduce or allreduce) was shortened to about 2/N of the comparative example.') },
  '001.reduce6.ratio': { form: 'ratio', quote: ja('[0110] (line 709, 図41)', '本実施形態によれば、図47に示した関連するフルメッシュネットワークの場合よりも、レデュースの通信にかかる時間はK/2倍に改善できた。', 'With this embodiment the time of a reduce improved K/2-fold over the related full-mesh network of 図47.') },
  '001.scatter.ratio': { form: 'ratio', quote: ja('[0090] (line 592, 図29)', 'そのため、メッセージサイズの大きいスキャタでは、2倍の高速化を実現することができる。', 'Hence a scatter of large messages becomes twice as fast.') },
  '001.p2p1.threshold': { form: 'threshold', quote: ja('[0035] (line 337, 図7)', '図7に示すように、第1実施形態ではデータサイズが80kbit以上でないと1ホップリンク適用の効果(データ転送時間の短縮化)を得ることができなかった。', 'As 図7 shows, in the 1st embodiment the benefit of the 1-hop links (a shorter transfer time) was obtained only from a data size of 80 kbit up.') },
  '001.p2p2.threshold': { form: 'bound', quote: ja('[0035] (line 337, 図7)', 'これに対して、本実施形態では、データサイズがより小さい20kbit以上であってもデータ転送時間の短縮化を図ることができる。', 'In this embodiment, by contrast, the transfer time can be shortened even at the smaller data size of 20 kbit and above.') },
  '001.mcast3.threshold': { form: 'bound', quote: ja('[0058] (line 445, 図16)', 'さらに、遅延を小さく抑えることで、N=8でデータ転送量4kbitと小さいデータサイズでも通信時間の短縮を実現できた。', 'Moreover, by keeping the latency small, the communication time was shortened even at a data size as small as 4 kbit at N = 8.') },
  '001.reduce4.threshold': { form: 'threshold', quote: ja('[0103] (line 659, 図35, 図37)', '第4実施形態では、1ホップリンクを用いた通信時間の削減効果は、データ転送量が70kbit以上の場合に現れた。', 'In the 4th embodiment the saving of communication time by the 1-hop links appeared from a data amount of 70 kbit up.') },
  '001.reduce5.threshold': { form: 'bound', quote: ja('[0103] (line 659, 図37)', 'これに対して、本実施形態では、20kbitといった小さいメッセージサイズでも通信時間の短縮を実現することができた。', 'In this embodiment, by contrast, the communication time was shortened even at a message size as small as 20 kbit.') },
  '001.threshold.order': { form: 'ordering' },
  '001.control.example': { form: 'property', quote: ja('[0079] (line 545, 図17–図28)', '例えば、以下の3つの通信がほぼ同時に順番に発生した場合の本実施形態の制御フローを用いた管理テーブルの変化を以下に示す。', 'For example, the changes of the management table under this embodiment\'s control flow are shown below for three communications arising almost at once, one after another.') },
  '001.control.choice': { form: 'ordering', quote: ja('[0022] (line 271)', 'すなわち、異なる2つ以上の計算ノード間で転送されるデータ量に応じて、直接リンクのみを使用するリンクと、1ホップリンクのみを使用するリンクと、直接リンクと前記1ホップリンクとを組み合わせて使用するリンクとの中から、転送に要する時間が短いリンクを、計算ノード間を接続するリンクとして決定する。', 'That is, depending on the amount of data transferred between two or more nodes, the links with the shorter transfer time are chosen among direct links only, 1-hop links only, and direct and 1-hop links combined.') },
  '001.control.policies': { form: 'ordering', quote: ja('[0125] (line 777, 図21, 図42)', 'これにより、複数の通信が同時に多発するアプリケーションにおいて、通信の待機時間を減らすことができる。', 'In applications where many communications arise at the same time, this reduces the communications\' waiting time.') },
  '001.control.periodic': { form: 'ordering', quote: ja('[0126] (line 781, 図21, 図42)', 'このようなアプリケーションでは、第3実施形態で説明したように、1つの集合通信をできるだけ高効率に実行する方が通信時間を削減することができる。', 'In such applications (periodic collectives, e.g. deep-learning training), running one collective as efficiently as possible, as in the 3rd embodiment, reduces the communication time.') },
  '001.fibres': { form: 'count', quote: ja('[0039] (line 355, 図47)', '図47に示した関連するフルメッシュ接続の計算機システム300では、光ファイバは約N2本必要である。', 'The related full-mesh system 300 of 図47 needs about N² optical fibres.') },
  '001.header': { form: 'count', quote: ja('[0051] (line 409, 図10)', 'したがって、各計算ノード間のリンクの通信速度が25Gbpsである場合であっても、図10に示すパケットにおける制御信号の割合は10%以下に小さくすることができる。', 'Hence even with 25 Gbps links between nodes, the control signal\'s share of the packet of 図10 can be kept at 10% or less.') },
  '001.tree-latency': { form: 'count', quote: ja('[0006] (line 140, 図46)', '例えば、1回の通信における遅延がLであると仮定すると、集合通信でM回の通信ステップが必要な場合、集合通信全体ではM×Lと大きな遅延が発生してしまう。', 'For example, if one communication has latency L and a collective needs M steps, the whole collective incurs a large latency M×L.') },
  '001.plane7': { form: 'ordering', quote: ja('[0128] (line 790, 図43)', 'これにより、通信制御部を増加することなく、並列計算機システム3800の計算ノード3801間の通信時間の短縮を実現することができた。', 'This shortened the communication time between the nodes 3801 of the parallel computer 3800 without adding control units.') },
  // Seed 002: US 2009/… IBM XOR-swap all-to-all (English, lines of the seed text).
  '002.example.first-swap': { form: 'exact', quote: en('line 120', 'The content of data element in data buffer and the contents in data element in data buffer however are exchanged') },
  '002.example.transpose': { form: 'exact', quote: en('line 68', 'Because each data buffer represents a row of the matrix and each data element corresponds to a column of the matrix performing an all to all data exchange on the buffers essentially transposes the matrix.') },
  '002.memory': { form: 'count', quote: en('line 76', 'Rather the computer memory required to perform the all to all exchange according to embodiments of the present invention is the computer memory used by the data buffers themselves.') },
  '002.hardware-combining': { form: 'ordering', quote: en('line 166', 'Using network hardware to performing each bitwise XOR allreduce operation with out involving the node s processing core typically enhances the overall performance of an all to all exchange on n number of data buffers using XOR swap operations according to embodiments of the present invention.') },
  '002.time': { form: 'ordering' },
  // Seed 003: US 8,274,987 B2, claim 1 (English); its clauses C1–C7 (spec B).
  '003.verified': { form: 'property', quote: en('claim 1 (C2)', 'the message passing interface broadcast command triggers an MPI broadcast for passing a plurality of data packets from one of the plurality of nodes ranked as a root node to a selection of non-root nodes from among the plurality of nodes') },
  '003.contention-free': { form: 'property', quote: en('title', 'Contention free pipelined broadcasting within a constant bisection bandwidth network topology') },
  '003.roles': { form: 'property', quote: en('claim 1 (C7)', 'wherein for each next step of the plurality of broadcast steps the first node and the second node alternate roles') },
  '003.sink-last': { form: 'property', quote: en('claim 1 (C6)', 'the sink receives the previously received data packet last') },
  '003.send-once': { form: 'property', quote: en('claim 1 (C5)', 'wherein each of the non-root nodes sends and receives the previously received data packet once throughout the plurality of broadcast steps') },
  '003.r2.steps': { form: 'count' },
  '003.r1.steps': { form: 'count' },
  '003.near-bound': { form: 'ratio' },
  '003.vs-chain': { form: 'ordering' },
  '003.binomial-contention': { form: 'property' },
  '003.time': { form: 'ordering' },
  // Seed 004: Yokota et al., IPSJ 1995 (Japanese); section and line of the seed text.
  '004.diameter': { form: 'exact', quote: ja('§4.1, Eq. (1) (line 161)', 'そこで、直径は  $B$  の値により次のように求められる。', 'The diameter is therefore, depending on B: (B+C+1)n−1 for B > 0 and (C+2)n−2 for B = 0 (Eq. 1).') },
  '004.mean.10': { form: 'exact', quote: ja('§4.2, Eq. (2) (line 171)', '目的リングに着いてから送り先ノードに着くまで平均リング半周分のホップ数を要するから、平均距離は結局、', 'Reaching the node after arriving on the target ring takes half a ring on average, so the mean distance is in the end (Eq. 2)') },
  '004.mean.01': { form: 'exact', quote: ja('§4.2, Eq. (3) (line 179)', 'CCC 網についても 3.3 節のルーティングに従う場合の平均距離を求めてみる。', 'For the CCC network too we derive the mean distance under the routing of §3.3 (Eq. 3).') },
  '004.mean.20': { form: 'exact', quote: ja('§4.2, Eq. (6) (line 195)', '以上から平均距離を算出することができ、', 'From the above the mean distance can be computed (Eq. 6)') },
  '004.mean.11': { form: 'exact', quote: ja('§4.2, Eq. (6)\'s CCC term (line 191)', 'さらに CCC 型接続によるホップ (平均  $nC/2$ ) も加わる。', 'The hops over CCC-type links (nC/2 on average) are added as well.') },
  '004.appendix-a.distance': { form: 'ordering', quote: ja('App. A (line 325)', 'このスキップにより転送ホップ数が減る場合もあるが、スキップされた桁位置からのクロスリンクを使うときは必ずリングに沿って 1 周してその桁位置に戻らねばならないため、全体で平均すると網直径・平均距離ともに悪化する。', 'The skip may reduce the hops of a transfer, but using the cross link of a skipped position always needs a full lap of the ring back to it, so on average over all, both diameter and mean distance get worse.') },
  '004.appendix-a.graph-distance': { form: 'ordering' },
  '004.appendix-a.simulation': { form: 'ordering', quote: ja('App. A, Fig. 12 (line 325)', 'このことは図 12 に示すように転送特性の悪化としてシミュレーションによっても検証されている。', 'This is confirmed by simulation too, as worse transfer performance (Fig. 12).') },
  '004.appendix-a.ccc-combination': { form: 'ordering', quote: ja('App. A (line 329)', '(2) 直積により MDCE 網を構成する際、 $\\delta=1$  だけの組合せ ((2, 0, 1)-MDCE) よりも  $\\delta=0, 1$  の組合せ ((1, 1, 1)-MDCE) のほうが良好な転送特性を示す点', '(2) when an MDCE is built as a direct product, combining δ = 0 and 1 ((1,1,1)-MDCE) shows better transfer performance than δ = 1 alone ((2,0,1)-MDCE)') },
  '004.sim.mdce-latency': { form: 'ordering', quote: ja('§5 (line 277, Figs. 7, 8, 11)', '図7, 8, 11 から、MDCE のクラスの網((CB)<sup>2</sup> および CCCB) の特性は、トラフィック耐性において間接網に及ばないが、非飽和状態でのレイテンシは最小レベルであり、次数、ハードウェア量などのトレードオフで考えれば MDCE 網の他の網に対する優位性が理解されよう。', 'From Figs. 7, 8 and 11, the MDCE networks ((CB)² and CCCB) fall short of the indirect networks in traffic tolerance, but their unsaturated latency is at the minimum level; weighing degree and hardware, their advantage is clear.') },
  '004.sim.indirect-tolerant': { form: 'ordering', quote: ja('§5 (line 275, Figs. 7–11)', '各グラフ中、間接網(図中 FT, MIN)は、いずれの通信パターンについても高いトラフィック耐性を示している。', 'In every graph the indirect networks (FT, MIN) show high traffic tolerance for every pattern.') },
  '004.sim.hotspot': { form: 'ordering', quote: ja('§5 (line 283, Fig. 9)', '同図から(M)DCE 網や間接網ではメッシュなどに比べ平均レイテンシが著しく大きくなることがわかる。', 'The figure shows that (M)DCE and indirect networks have a markedly larger average latency than the mesh and the like.') },
  '004.sim.mesh-emulation': { form: 'ordering', quote: ja('§5 (line 285, Fig. 10)', 'MDCE 網はトポロジ上、メッシュを直接マップすることはできないが、メッシュ・エミュレーション時においても、メッシュ形状に次いで良好な特性を示している(図 10)。', 'The MDCE cannot map a mesh directly, yet under mesh emulation it is the best after the mesh-shaped networks (Fig. 10).') },
  '004.comega.readings': { form: 'exact' },
  '004.parallel-links': { form: 'ordering' },
  '004.sim.mdce-latency.one-clock': { form: 'ordering' },
  '004.sim.hotspot.one-clock': { form: 'ordering' },
  '004.sim.mesh-emulation.one-clock': { form: 'ordering' },
};

/** Table 1's rows as printed (line 208–216 of the seed text): label, then per size config and mean. */
const TABLE1_ROWS: Readonly<Record<string, { label: string; line: number; cells: Readonly<Record<string, readonly [string, string]>> }>> = {
  '2-0-1-mdce': { label: '(2,0,1)-MDCE ((CB) <sup>2</sup> )', line: 208, cells: { 1024: ['4×16×16', '8.15'], 524288: ['8×256×256', '18.61'] } },
  '1-1-1-mdce': { label: '(1,1,1)-MDCE (CCCB)', line: 209, cells: { 1024: ['4×16×16', '6.44'], 524288: ['8×256×256', '14.49'] } },
  'c-banyan': { label: 'c-Banyan (CB)', line: 210, cells: { 1024: ['8×128', '10.01'], 524288: ['16×32768', '22.00'] } },
  'cube-connected-cycles': { label: 'Cube-Connected Cycles (CCC)', line: 211, cells: { 1024: ['8×128', '12.52'], 524288: ['16×32768', '28.50'] } },
  '2d-mesh': { label: '2D Mesh (2DM)', line: 212, cells: { 1024: ['32×32', '32.00'], 524288: ['1024×512', '768.00'] } },
  '2d-torus': { label: '2D Torus (2DT)', line: 213, cells: { 1024: ['32×32', '16.00'], 524288: ['1024×512', '384.00'] } },
  '3d-torus': { label: '3D Torus (3DT)', line: 214, cells: { 1024: ['8×8×16', '8.00'], 524288: ['64×64×128', '64.00'] } },
  'binary-fat-trees': { label: 'binary Fat-Trees (FT)', line: 215, cells: { 1024: ['1024×10', '17.00'], 524288: ['2 <sup>19</sup> ×19', '35.00'] } },
  omega: { label: 'Omega (MIN)', line: 216, cells: { 1024: ['512×10', '10.00'], 524288: ['2 <sup>18</sup> ×19', '19.00'] } },
};

function table1Sentence(id: string): Sentence | undefined {
  const m = /^004\.table1\.(.+)\.(\d+)$/.exec(id);
  const row = m ? TABLE1_ROWS[m[1]] : undefined;
  const cell = m && row ? row.cells[m[2]] : undefined;
  if (!m || !row || !cell) return undefined;
  const pes = Number(m[2]).toLocaleString('en-US');
  return { form: 'exact', quote: en(`Table 1, row ${row.label.replace(/ <sup>2<\/sup> /, '²')}, ${pes} PEs (line ${row.line})`, `${row.label} … ${cell[0]} ${cell[1]}`) };
}

/** The catalogue's entry for a row id, if any. */
export function sentenceOf(id: string): Sentence | undefined {
  return SENTENCES[id] ?? table1Sentence(id);
}

/** Every id the catalogue names (Table 1 cells apart), for the test that keeps it in step with the seeds. */
export function catalogueIds(): string[] {
  return Object.keys(SENTENCES);
}

/**
 * Fills in each row's form and quote from the catalogue where the seed module did not set them.
 * The seed module's own form wins (a row whose form depends on its run sets it itself).
 */
export function withSentences(claims: readonly Claim[]): Claim[] {
  return claims.map((c) => {
    const s = sentenceOf(c.id);
    if (!s) return c;
    return { ...c, form: c.form ?? s.form, ...(c.quote || !s.quote || c.source !== 'document' ? {} : { quote: s.quote }) };
  });
}
