"""The judicial layer: three personas, offline or Claude backends, a concurrent bench.

No re-exports (importing a module of this package never runs the others). The pipeline's
use::

    from courtroom.judges.backends import make_backend
    from courtroom.judges.bench import JudgeBench
    from courtroom.judges.cache import OpinionCache

    backend = make_backend("offline" | "anthropic", model=..., api_key=..., base_url=...,
                           timeout=600.0, provider="anthropic" | "bedrock" | "vertex")
    bench = JudgeBench(backend, max_workers=8, cache=OpinionCache(dir), trace=trace,
                       max_cost_usd=None)
    answers = bench.judge(requests)          # [(JudicialOpinion, JudgeUsage)], in order
    futures = bench.submit(requests)         # the same, without waiting
    bench.usage                              # courtroom.models.Usage for verdict.json
    bench.close()
"""
