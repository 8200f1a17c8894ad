#!/usr/bin/env escript
%% The compiler's side of crates/syntax/tests/ms_transform_otp.rs: for each
%% file that names the ms_transform parse transform, the match specification
%% each ets:fun2ms/dbg:fun2ms call becomes (one line per call: file, the
%% fun's line:column, the literal in the test's text form), or the error
%% ms_transform reports (file, ERROR, line:column, message).
main(Files) -> [file1(F) || F <- Files], ok.
file1(F) ->
    D = filename:dirname(F),
    Inc = [D, filename:join(D, "../include"), filename:join(D, "../../include")],
    {ok, Forms} = epp:parse_file(F, [{includes, Inc}, {location, {1,1}}]),
    case lists:any(fun({attribute,_,compile,O}) -> names_ms(O); (_) -> false end, Forms) of
        false -> ok;
        true ->
            Locs = sites(Forms, []),
            case ms_transform:parse_transform(Forms, []) of
                {error, [{_, [{Loc, M, R} | _]} | _], _} ->
                    io:format("~ts\tERROR\t~s\t~ts~n", [F, loc(Loc), M:format_error(R)]);
                Res ->
                    Out = case Res of {warning, Fs, _} -> Fs; Fs -> Fs end,
                    [io:format("~ts\t~s\t~ts~n", [F, loc(L), T]) || {L, T} <- lists:sort(found(Out, Locs, []))]
            end
    end.
names_ms({parse_transform, ms_transform}) -> true;
names_ms(L) when is_list(L) -> lists:any(fun names_ms/1, L);
names_ms(_) -> false.
loc({L, C}) -> io_lib:format("~w:~w", [L, C]);
loc(L) -> io_lib:format("~w", [L]).
sites({call,_,{remote,_,{atom,_,M},{atom,_,fun2ms}},[A]} = T, Acc) when M =:= ets; M =:= dbg ->
    sites(tuple_to_list(T), [element(2, A) | Acc]);
sites(T, Acc) when is_tuple(T) -> sites(tuple_to_list(T), Acc);
sites([H | T], Acc) -> sites(T, sites(H, Acc));
sites(_, Acc) -> Acc.
found({cons, A, _, _} = E, Locs, Acc) -> here(E, A, Locs, Acc);
found({nil, A} = E, Locs, Acc) -> here(E, A, Locs, Acc);
found(T, Locs, Acc) when is_tuple(T) -> found(tuple_to_list(T), Locs, Acc);
found([H | T], Locs, Acc) -> found(T, Locs, found(H, Locs, Acc));
found(_, _, Acc) -> Acc.
here(E, A, Locs, Acc) ->
    case lists:member(A, Locs) of
        true -> [{A, lists:flatten(c(E))} | Acc];
        false -> case E of {cons, _, H, T} -> found(T, Locs, found(H, Locs, Acc)); _ -> Acc end
    end.
j(L) -> lists:join(",", [c(X) || X <- L]).
c({atom,_,A}) -> io_lib:write_atom(A);
c({integer,_,I}) -> integer_to_list(I);
c({char,_,C}) -> integer_to_list(C);
c({float,_,F}) -> io_lib:format("~w", [F]);
c({var,_,V}) -> atom_to_list(V);
c({string,_,""}) -> "[]";
c({string,_,S}) -> ["[", lists:join(",", [integer_to_list(X) || X <- S]), "]"];
c({tuple,_,Es}) -> ["{", j(Es), "}"];
c({nil,_}) -> "[]";
c({cons,_,_,_} = L) -> {Es, T} = unc(L, []), case T of {nil,_} -> ["[", j(Es), "]"]; _ -> ["[", j(Es), "|", c(T), "]"] end;
c({map,_,Fs}) -> ["#{", lists:join(",", [[c(K), "=>", c(V)] || {_,_,K,V} <- Fs]), "}"];
c({bin,_,Es}) -> ["<<", lists:join(",", [c(V) || {bin_element,_,V,_,_} <- Es]), ">>"];
c({op,_,'-',{integer,_,I}}) -> ["-", integer_to_list(I)];
c({op,_,Op,A}) -> ["op(", io_lib:write_atom(Op), ",", c(A), ")"];
c({op,_,Op,A,B}) -> ["op(", io_lib:write_atom(Op), ",", c(A), ",", c(B), ")"];
c(_) -> "?".
unc({cons,_,H,T}, Acc) -> unc(T, [H | Acc]);
unc(T, Acc) -> {lists:reverse(Acc), T}.
