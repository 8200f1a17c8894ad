-module(try_catch).
-export([t1/1, t2/1, t3/1, t4/0]).

t1(F) ->
    try F() of
        {ok, V} -> V;
        Other -> Other
    catch
        throw:T -> {thrown, T};
        error:badarg:Stack -> {badarg, Stack};
        exit:R when R =/= normal -> R;
        C:R:S -> {C, R, S}
    after
        cleanup()
    end.
t2(F) -> try F() catch X -> X end.
t3(F) -> try F() after cleanup() end.
t4() -> try ok catch _:_ -> error end.
cleanup() -> ok.
