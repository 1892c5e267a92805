import type { ScenarioReadings } from './servingReadings';

/** How the Assumptions panel names a reading of BCEdge and its options, with the paper's words (ARCHITECTURE §3). */
export interface ReadingText<K extends keyof ScenarioReadings = keyof ScenarioReadings> {
  readonly name: K;
  readonly label: string;
  /** The paper's words the reading interprets, and where they are. */
  readonly quote: string;
  readonly where: string;
  /** The options, the paper's reading first. */
  readonly options: readonly { readonly value: ScenarioReadings[K]; readonly label: string; readonly means: string }[];
}

/** The readings of BCEdge, in the panel's order. */
export const READING_TEXTS: readonly ReadingText[] = [
  {
    name: 'rateBasis',
    label: 'Request rate',
    quote: '“The request arrival rate is set to 30 requests per second” with “a request queue for each model”',
    where: '§V-A, §III-A1',
    options: [
      { value: 'perModel', label: 'per model (paper)', means: 'Each model receives the rate: six models at 30 rps send 180 rps in all.' },
      { value: 'total', label: 'in total', means: 'The rate is shared by the models by weight (the lab’s earlier reading): 5 rps each.' },
    ],
  },
  {
    name: 'batching',
    label: 'Batching',
    quote: '“aggregating arriving requests into a batch within a given time window … The more requests in a batch, the longer the waiting time”',
    where: '§I, §III-A1',
    options: [
      { value: 'form', label: 'batches form (paper)', means: 'A free instance waits for b requests, or starts with fewer at the last moment that lets the most urgent meet its SLO alone on the device.' },
      { value: 'cap', label: 'b is a cap', means: 'A free instance takes up to b waiting requests at once (Triton’s max_queue_delay 0; the earlier reading).' },
    ],
  },
  {
    name: 'throughputTerm',
    label: 'T of Eq. 3',
    quote: '“The throughput in the i-th scheduling time slot t_i can be denoted as T_{t_i}(b, m_c)”',
    where: 'Eq. 3, §III-B',
    options: [
      { value: 'configuration', label: 'the configuration’s (paper)', means: 'm_c × requests per instance-busy second: what (b, m_c) serves at load; the closed-loop rate.' },
      { value: 'completed', label: 'requests completed', means: 'Requests completed in the slot per second, equal to the offered load while the device keeps up (the earlier reading).' },
    ],
  },
  {
    name: 'reward',
    label: 'Reward',
    quote: '“min. U s.t. m_i ≤ M_i, L_i ≤ SLO_i”',
    where: 'Eq. 4, Eq. 6',
    options: [
      { value: 'withinSlo', label: 'U within the SLO (paper)', means: 'U + ln(share of the slot’s requests that met their SLO), floored at the stall’s −10: a penalty, every action stays open.' },
      { value: 'utility', label: 'U alone', means: 'Eq. 3 alone; the SLO is only a metric (the earlier reading).' },
    ],
  },
  {
    name: 'latencyProfile',
    label: 'Latency profile',
    quote: '“we leverage TensorRT to accelerate the original DNN models” (the paper gives no latencies)',
    where: '§I, Table III',
    options: [
      { value: 'tensorrt', label: 'TensorRT on Jetson (published)', means: 'Batch-1 GPU times from published Jetson TensorRT figures, with the table’s CPU share (worlds/serving/engine/models.ts cites each).' },
      { value: 'lab', label: 'the lab’s slower profile', means: 'Slower batch-1 times chosen so that 30 rps in total loads the device (the earlier reading).' },
    ],
  },
  {
    name: 'interference',
    label: 'Predictor judges',
    quote: 'interference “caused by concurrent inference of multiple models or multiple instances of a single model”',
    where: '§IV-F',
    options: [
      { value: 'coLocated', label: 'the co-located models (paper)', means: 'A model’s action is judged with every other model with work running all its instances.' },
      { value: 'ownModel', label: 'the model’s own action', means: 'The device as it is at the decision, only the model’s own action changed; (1, 1) never masked (the earlier reading).' },
    ],
  },
  {
    name: 'platformSetting',
    label: 'Nano and TX2',
    quote: '“We evaluate the scalability of BCEdge using object detection (YOLO-v5), image classification (ResNet-18) and speech recognition (TinyBERT) DNN models, respectively”',
    where: '§V-D, Figs. 11–12',
    options: [
      { value: 'perModel', label: 'each model alone (paper)', means: 'On Jetson Nano and TX2 each model is served alone on its own copy of the device, every lane runs one scheduler per copy, and the results add up; Xavier NX serves the models together (§V-A).' },
      { value: 'mixed', label: 'the models together', means: 'The models share the device on every platform (the earlier reading): three models at 30 rps each overload a Nano.' },
    ],
  },
  {
    name: 'slot',
    label: 'Scheduling slot',
    quote: '“we set the i-th scheduling time slot t_i as the ratio of the sum of SLO_i for a batch requests to the number of concurrent models: t_i = Σ SLO_i / m_c … BCEdge starts the next scheduling immediately after finishing the current scheduling”',
    where: '§III-A2, Eq. 1',
    options: [
      { value: 'eq1', label: 'Eq. 1, per model (paper)', means: 'Each model decides at the end of its own slot t_i = Σ SLO / m_c over the b requests its next batch takes (the most urgent queued, the model’s SLO for the missing): b = 4, m_c = 2 at 100 ms decide every 200 ms. Charts keep the slot length as their reporting interval.' },
      { value: 'fixed', label: 'one fixed slot', means: 'Every model decides together every slot length (1 s by default; the earlier reading).' },
    ],
  },
  {
    name: 'credit',
    label: 'Reward credit',
    quote: '“the reward function … r_t = U” for the action of the slot, without saying which requests U is taken over',
    where: '§IV-B1, Eq. 3 and 6',
    options: [
      { value: 'governed', label: 'requests the decision governed (lab)', means: 'A decision’s reward is the utility, scored as the summaries score it, of the batches it started (and the requests it lost), once they finished. A slot that ended before its batch is no stall; it is learned from when its batch is done.' },
      { value: 'slot', label: 'requests completed in the slot', means: 'The utility of what completed inside the slot (the earlier reading): under Eq. 1’s short slots small batches often score the stall’s −10 and the reward ranks actions differently from the metric.' },
    ],
  },
  {
    name: 'lateRequests',
    label: 'Late requests',
    quote: 'the paper queues every request (“a request queue for each model”) and is silent on those that can no longer meet their SLO',
    where: '§III-A1, §IV-C',
    options: [
      { value: 'reject', label: 'rejected when late (lab)', means: 'A queued request whose deadline has become unreachable is rejected, as an edge server’s queue policy can (an SLO violation, never served): an overload costs its own requests.' },
      { value: 'keep', label: 'kept until served', means: 'Every request waits until served, however late (the earlier reading): after an overload the backlog can take minutes to drain, or grow without bound.' },
    ],
  },
];
