import { expect } from '@open-wc/testing';
import { AvatarStage } from '../../widget/stage/avatar-stage.js';
import { EmotionExpression, EmotionWeights, StageEmotions } from '../../widget/stage/emotion-expression.js';

describe('EmotionExpression', () => {
  it('eases an emotion in to its weight and back out to neutral, on the clock it is given', () => {
    const face = new EmotionExpression();
    face.set('happy');
    face.update(0.1);
    const early = face.weight('happy');
    expect(early, 'rising, not there yet').to.be.within(0.05, EmotionWeights.happy - 0.05);
    for (let i = 0; i < 60; i++) face.update(1 / 30);
    expect(face.weight('happy')).to.equal(EmotionWeights.happy);
    face.set(undefined);
    face.update(0.1);
    expect(face.weight('happy'), 'falling').to.be.within(0.05, EmotionWeights.happy - 0.05);
    for (let i = 0; i < 120; i++) face.update(1 / 30);
    expect(face.weight('happy')).to.equal(0);
  });

  it('hands over from one emotion to the next without a jump', () => {
    const face = new EmotionExpression();
    face.set('happy');
    for (let i = 0; i < 60; i++) face.update(1 / 30);
    face.set('sad');
    face.update(1 / 30);
    expect(face.weight('happy'), 'the smile fades').to.be.within(0.4, EmotionWeights.happy);
    expect(face.weight('sad'), 'the frown starts').to.be.within(0.01, 0.2);
    expect(face.target).to.equal('sad');
    face.reset();
    for (const e of StageEmotions) expect(face.weight(e)).to.equal(0);
  });

  it('keeps every default weight low enough for the visemes to read over it', () => {
    for (const e of StageEmotions) expect(EmotionWeights[e], e).to.be.within(0.2, 0.6);
  });
});

describe('AvatarStage.setEmotion', () => {
  it("drives the model's expression of that name, and only that one", async () => {
    const container = document.createElement('div');
    container.style.cssText = 'position:fixed;left:0;top:0;width:240px;height:320px';
    document.body.appendChild(container);
    const stage = new AvatarStage({ container, maxPixelRatio: 1, seed: 1 });
    try {
      await stage.load('/assets/avatars/sofia-003.vrm');
      stage.setEmotion('sad');
      stage.advance(2);
      stage.capture();
      const expressions = stage.vrm!.expressionManager!;
      expect(stage.emotion).to.equal('sad');
      expect(expressions.getValue('sad')).to.be.closeTo(EmotionWeights.sad, 1e-3);
      for (const other of StageEmotions.filter((e) => e !== 'sad')) expect(expressions.getValue(other), other).to.equal(0);
      stage.setEmotion(undefined);
      stage.advance(3);
      stage.capture();
      expect(expressions.getValue('sad')).to.equal(0);
    } finally {
      stage.dispose();
      container.remove();
    }
  });
});
