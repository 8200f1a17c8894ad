%% racewit prelude: the code server, modelled. Every module racewit has
%% (the analysed code, the libraries, the prelude, the BIF modules) counts
%% as loaded from the start, as in an embedded node; paths come from the
%% installation the loader found (`racewit_apps`). An OTP module's object
%% file is `LIBDIR/APP-VSN/ebin/M.beam`; an analysed module's is its
%% source path with `.beam` (racewit compiles nothing to disk). Changing
%% the code path or loading object code touches the host: never run.
-module(code).
-export([root_dir/0, lib_dir/0, lib_dir/1, lib_dir/2, priv_dir/1,
         is_loaded/1, ensure_loaded/1, ensure_modules_loaded/1, load_file/1,
         which/1, objfile_extension/0, is_sticky/1, get_mode/0,
         module_status/1, modified_modules/0, is_module_native/1]).

root_dir() -> racewit_apps:root_dir().

lib_dir() -> filename:join(root_dir(), "lib").

lib_dir(App) when is_atom(App) ->
    case racewit_apps:dir(App) of
        undefined -> {error, bad_name};
        Dir -> Dir
    end;
lib_dir(App) when is_list(App) -> lib_dir(list_to_atom(App));
lib_dir(_) -> {error, bad_name}.

lib_dir(App, SubDir) ->
    case lib_dir(App) of
        {error, _} = E -> E;
        Dir -> filename:join(Dir, atom_to_list(SubDir))
    end.

priv_dir(App) ->
    case lib_dir(App) of
        {error, _} = E -> E;
        Dir -> filename:join(Dir, "priv")
    end.

is_loaded(M) when is_atom(M) ->
    case which(M) of
        non_existing -> false;
        Path -> {file, Path}
    end;
is_loaded(M) -> erlang:error(function_clause, [M]).

ensure_loaded(M) when is_atom(M) ->
    case racewit_code:origin(M) of
        false -> {error, nofile};
        _ -> {module, M}
    end;
ensure_loaded(M) -> erlang:error(function_clause, [M]).

ensure_modules_loaded(Ms) ->
    case [{M, nofile} || M <- Ms, ensure_loaded(M) =:= {error, nofile}] of
        [] -> ok;
        Bad -> {error, lists:reverse(Bad)}   % OTP's order: the last first
    end.

load_file(M) -> ensure_loaded(M).

which(M) when is_atom(M) ->
    case racewit_code:origin(M) of
        false -> non_existing;
        Origin ->
            case lists:member(M, erlang:pre_loaded()) of
                true -> preloaded;
                false when Origin =:= user -> user_object(M);
                false ->
                    case otp_object(M) of
                        undefined when Origin =:= builtin -> preloaded;
                        undefined -> user_object(M);
                        Path -> Path
                    end
            end
    end.

user_object(M) ->
    case racewit_code:source(M) of
        undefined -> non_existing;
        Src -> filename:rootname(Src) ++ ".beam"
    end.

otp_object(M) ->
    Apps = [A || A <- racewit_apps:all(),
                 case racewit_apps:resource(A) of
                     {application, A, Props} ->
                         lists:member(M, proplists:get_value(modules, Props, []));
                     _ -> false
                 end],
    case Apps of
        [A | _] -> filename:join([racewit_apps:dir(A), "ebin", atom_to_list(M) ++ ".beam"]);
        [] -> undefined
    end.

objfile_extension() -> ".beam".
is_sticky(_) -> false.
get_mode() -> interactive.
module_status(M) ->
    case racewit_code:origin(M) of
        false -> not_loaded;
        _ -> loaded
    end.
modified_modules() -> [].
is_module_native(M) ->
    case racewit_code:origin(M) of
        false -> undefined;
        _ -> false
    end.
