%% racewit prelude: mnesia transactions (one atomic step; undone on abort).
-module(mnesia).
-export([transaction/1, transaction/2, transaction/3, abort/1, activity/2, activity/3,
         activity/4, sync_dirty/1, sync_dirty/2, async_dirty/1, async_dirty/2,
         ets/1, ets/2, is_transaction/0, sync_transaction/1]).

transaction(Fun) -> transaction(Fun, []).
transaction(Fun, Args) when is_list(Args) -> run_tx(Fun, Args);
transaction(Fun, _Retries) -> run_tx(Fun, []).
transaction(Fun, Args, _Retries) -> run_tx(Fun, Args).
sync_transaction(Fun) -> run_tx(Fun, []).

run_tx(Fun, Args) ->
    racewit:mnesia_begin(),
    try apply(Fun, Args) of
        Res -> racewit:mnesia_commit(), {atomic, Res}
    catch
        exit:{aborted, Reason} -> racewit:mnesia_abort(), {aborted, Reason};
        throw:T -> racewit:mnesia_abort(), {aborted, {throw, T}};
        error:Reason:St -> racewit:mnesia_abort(), {aborted, {Reason, St}};
        exit:Reason -> racewit:mnesia_abort(), {aborted, Reason}
    end.

abort(Reason) -> exit({aborted, Reason}).

is_transaction() -> false.

activity(Kind, Fun) -> activity(Kind, Fun, []).
activity(transaction, Fun, Args) ->
    case run_tx(Fun, Args) of
        {atomic, R} -> R;
        {aborted, R} -> exit({aborted, R})
    end;
activity({transaction, _}, Fun, Args) -> activity(transaction, Fun, Args);
activity(sync_transaction, Fun, Args) -> activity(transaction, Fun, Args);
activity(_Dirty, Fun, Args) -> apply(Fun, Args).
activity(Kind, Fun, Args, _Mod) -> activity(Kind, Fun, Args).

sync_dirty(Fun) -> apply(Fun, []).
sync_dirty(Fun, Args) -> apply(Fun, Args).
async_dirty(Fun) -> apply(Fun, []).
async_dirty(Fun, Args) -> apply(Fun, Args).
ets(Fun) -> apply(Fun, []).
ets(Fun, Args) -> apply(Fun, Args).
