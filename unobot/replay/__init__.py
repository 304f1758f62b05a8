"""Game replays (issue 19): a recorded game's move list (its table journal) turned back into
what the channel saw, step by step (:mod:`unobot.replay.steps`), printed in the terminal by
``unobot replay`` (:mod:`unobot.replay.cli`); and made-up recorded games for seeded databases
and tests (:mod:`unobot.replay.simulate`)."""
