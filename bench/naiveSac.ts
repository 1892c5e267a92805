import type { Tensor, Tensor2D, Variable } from '@tensorflow/tfjs';
import type { Tf } from '../src/lib/tf';

/**
 * The bench's baseline for one discrete-SAC update: a straightforward port, as one would
 * first write it from CleanRL's discrete SAC — tfjs autodiff through per-layer variables
 * (matMul + add + relu), three optimizers each with its own gradient pass (critic, actor,
 * temperature), the target in its own tidy, one-hot with tf.oneHot. Same sizes, same batch.
 * Not used by the lab; only to show what src/worlds/serving/agents/sac.ts saves, measured in one run.
 */
export class NaiveSac {
  private readonly nets: { W: Variable; b: Variable }[][];
  private readonly logAlpha: Variable;
  private readonly critic;
  private readonly actorOpt;
  private readonly alphaOpt;

  constructor(
    private readonly tf: Tf,
    private readonly sizes: readonly number[],
  ) {
    const make = () =>
      sizes.slice(1).map((out, i) => ({
        W: tf.variable(tf.randomUniform([sizes[i]!, out], -0.1, 0.1)),
        b: tf.variable(tf.zeros([out])),
      }));
    this.nets = [make(), make(), make(), make(), make()]; // actor, q1, q2, q1 target, q2 target
    this.logAlpha = tf.variable(tf.scalar(Math.log(0.1)));
    this.critic = tf.train.adam(1e-3);
    this.actorOpt = tf.train.adam(1e-3);
    this.alphaOpt = tf.train.adam(1e-3);
  }

  private apply(net: { W: Variable; b: Variable }[], x: Tensor2D): Tensor2D {
    let h = x;
    net.forEach((l, i) => {
      h = this.tf.add(this.tf.matMul(h, l.W as unknown as Tensor2D), l.b) as Tensor2D;
      if (i < net.length - 1) h = this.tf.relu(h);
    });
    return h;
  }

  update(states: Float32Array, nextStates: Float32Array, actions: Int32Array, rewards: Float32Array, n: number): void {
    const tf = this.tf;
    const S = this.sizes[0]!;
    const A = this.sizes.at(-1)!;
    const [actor, q1, q2, q1t, q2t] = this.nets as [typeof this.nets[0], typeof this.nets[0], typeof this.nets[0], typeof this.nets[0], typeof this.nets[0]];
    tf.tidy(() => {
      const s = tf.tensor2d(states, [n, S]);
      const s2 = tf.tensor2d(nextStates, [n, S]);
      const a = tf.oneHot(tf.tensor1d(actions, 'int32'), A).toFloat();
      const r = tf.tensor1d(rewards);
      const alpha = tf.exp(this.logAlpha);
      const y = tf.tidy(() => {
        const logp2 = tf.logSoftmax(this.apply(actor, s2));
        const q = tf.minimum(this.apply(q1t, s2), this.apply(q2t, s2));
        return tf.add(r, tf.mul(tf.sum(tf.mul(tf.exp(logp2), tf.sub(q, tf.mul(alpha, logp2))), 1), 0.9));
      });
      this.critic.minimize(() => {
        const e1 = tf.sub(tf.sum(tf.mul(this.apply(q1, s), a), 1), y);
        const e2 = tf.sub(tf.sum(tf.mul(this.apply(q2, s), a), 1), y);
        return tf.mul(tf.add(tf.mean(tf.square(e1)), tf.mean(tf.square(e2))), 0.5) as unknown as Tensor & { rank: 0 } as never;
      }, false, [...q1, ...q2].flatMap((l) => [l.W, l.b]));
      const minQ = tf.minimum(this.apply(q1, s), this.apply(q2, s));
      this.actorOpt.minimize(() => {
        const logp = tf.logSoftmax(this.apply(actor, s));
        return tf.mean(tf.sum(tf.mul(tf.exp(logp), tf.sub(tf.mul(alpha, logp), minQ)), 1)) as never;
      }, false, actor.flatMap((l) => [l.W, l.b]));
      const logp = tf.logSoftmax(this.apply(actor, s));
      const term = tf.mean(tf.add(tf.sum(tf.mul(tf.exp(logp), logp), 1), 0.3 * Math.log(A)));
      this.alphaOpt.minimize(() => tf.mul(tf.neg(this.logAlpha), term) as never, false, [this.logAlpha]);
      for (let k = 0; k < 2; k++) {
        const [online, target] = k === 0 ? [q1, q1t] : [q2, q2t];
        online.forEach((l, i) => {
          target[i]!.W.assign(tf.add(tf.mul(l.W, 0.005), tf.mul(target[i]!.W, 0.995)));
          target[i]!.b.assign(tf.add(tf.mul(l.b, 0.005), tf.mul(target[i]!.b, 0.995)));
        });
      }
    });
  }
}
