//! How a command is declared once and reaches both Tauri and the UI's
//! TypeScript.
//!
//! A command is written inside `command!`: an ordinary
//! function, except that the values Tauri injects (`State`, `AppHandle`,
//! `Window`) go in square brackets before the parentheses, and only the
//! arguments in parentheses come from the window:
//!
//! ```ignore
//! command! {
//!     /// The six settings files of a project, structured.
//!     pub(crate) async fn hook_files<R: Runtime>[app: AppHandle<R>](
//!         project: String,
//!     ) -> Result<Vec<HookFile>> {
//!         blocking(&app, move |state| editor::hook_files(state, &project)).await
//!     }
//! }
//! ```
//!
//! The macro emits the `#[tauri::command]` function as written (injected
//! values first) and, beside it, a module of the same name (modules and
//! functions live in different namespaces) whose `signature()` describes
//! the IPC side: the command's name, its doc comment, each argument's name
//! and type, and the result type (the `T` of `Result<T>`, or the plain
//! return type). Separating the injected values syntactically is what lets
//! a `macro_rules!` tell them apart without parsing types, so no proc-macro
//! crate and no second type system are needed: every type is described by
//! its ts-rs [`TS`] implementation, the same one that writes
//! `ui/src/lib/bindings/`.
//!
//! `register!` takes the list of command paths once and
//! expands to both the `tauri::generate_handler!` and the list of
//! [`Signature`]s, which [`super::typescript`] renders as the UI's command map.
//! A command that is declared but not registered is dead code (the
//! functions are `pub(crate)`), so `clippy -D warnings` refuses it.

use ts_rs::{Config, Dependency, ExportError, TS, TypeVisitor};

/// Declares one command; see the [module docs](self).
///
/// Accepted shape: doc comments, `pub(crate)`, optional `async`, the name,
/// an optional `<R: Runtime>`, `[injected: Type, ...]` (may be omitted
/// when empty), `(argument: Type, ...)`, an optional `-> Result<T>` or
/// `-> T`, and the body.
macro_rules! command {
    (
        $(#[doc = $doc:literal])*
        pub(crate) async fn $($rest:tt)*
    ) => {
        $crate::commands::registry::command!(@ret [$($doc)*] [async] $($rest)*);
    };
    (
        $(#[doc = $doc:literal])*
        pub(crate) fn $($rest:tt)*
    ) => {
        $crate::commands::registry::command!(@ret [$($doc)*] [] $($rest)*);
    };
    // Nothing injected: an empty bracket.
    (@ret $docs:tt $async:tt $name:ident $(<$g:ident: $bound:path>)?
        ($($args:tt)*) $($rest:tt)*
    ) => {
        $crate::commands::registry::command!(
            @ret $docs $async $name $(<$g: $bound>)? [] ($($args)*) $($rest)*
        );
    };
    // `-> Result<T>`: the window sees `T`; an error rejects with `{kind, message}`.
    (@ret $docs:tt $async:tt $name:ident $(<$g:ident: $bound:path>)?
        [$($inj:tt)*] ($($args:tt)*) -> Result<$ok:ty> $body:block
    ) => {
        $crate::commands::registry::command!(
            @emit $docs $async $name [$(<$g: $bound>)?] [$($inj)*] ($($args)*)
            [Result<$ok>] [$ok] $body
        );
    };
    (@ret $docs:tt $async:tt $name:ident $(<$g:ident: $bound:path>)?
        [$($inj:tt)*] ($($args:tt)*) -> $ret:ty $body:block
    ) => {
        $crate::commands::registry::command!(
            @emit $docs $async $name [$(<$g: $bound>)?] [$($inj)*] ($($args)*)
            [$ret] [$ret] $body
        );
    };
    (@ret $docs:tt $async:tt $name:ident $(<$g:ident: $bound:path>)?
        [$($inj:tt)*] ($($args:tt)*) $body:block
    ) => {
        $crate::commands::registry::command!(
            @emit $docs $async $name [$(<$g: $bound>)?] [$($inj)*] ($($args)*)
            [()] [()] $body
        );
    };
    (@emit [$($doc:literal)*] [$($async:tt)?] $name:ident [$($generics:tt)*]
        [$($inj:ident: $injty:ty),* $(,)?]
        ($($arg:ident: $argty:ty),* $(,)?)
        [$ret:ty] [$ok:ty] $body:block
    ) => {
        $(#[doc = $doc])*
        #[tauri::command]
        pub(crate) $($async)? fn $name $($generics)* (
            $($inj: $injty,)*
            $($arg: $argty),*
        ) -> $ret $body

        #[doc = concat!(
            "The IPC signature of [`", stringify!($name), "()`](fn@", stringify!($name), ")."
        )]
        pub(crate) mod $name {
            #[allow(unused_imports)]
            use super::*;
            use $crate::commands::registry::{Signature, TsType};

            /// Name, doc, arguments and result, for the UI's command map.
            pub(crate) fn signature() -> Signature {
                Signature {
                    name: stringify!($name),
                    doc: &[$($doc),*],
                    args: vec![$((stringify!($arg), TsType::of::<$argty>())),*],
                    result: TsType::of::<$ok>(),
                }
            }
        }
    };
}

/// Registers every command, once: expands to `handler()` (for
/// `Builder::invoke_handler`) and `signatures()` (for the UI's command map).
macro_rules! register {
    ($($($seg:ident)::+),* $(,)?) => {
        /// Every command, for `Builder::invoke_handler`.
        pub fn handler<R: tauri::Runtime>()
            -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static
        {
            tauri::generate_handler![$($($seg)::+),*]
        }

        /// Every command's IPC signature, in registration order.
        pub fn signatures() -> Vec<$crate::commands::registry::Signature> {
            vec![$($($seg)::+::signature()),*]
        }
    };
}

pub(crate) use {command, register};

/// What the window sees of one command.
#[derive(Debug)]
pub struct Signature {
    /// The command's name (the Rust function's).
    pub name: &'static str,
    /// Its doc comment, one entry per line.
    pub doc: &'static [&'static str],
    /// The arguments the window passes, by name, in order.
    pub args: Vec<(&'static str, TsType)>,
    /// What it resolves with.
    pub result: TsType,
}

/// What the window sees of one event the backend emits.
#[derive(Debug)]
pub struct EventSignature {
    /// The event's name.
    pub name: &'static str,
    /// One line for the UI's docs.
    pub doc: &'static str,
    /// Its payload.
    pub payload: TsType,
}

impl EventSignature {
    /// The event `name` carrying a `T`.
    pub fn of<T: TS + 'static>(name: &'static str, doc: &'static str) -> Self {
        Self {
            name,
            doc,
            payload: TsType::of::<T>(),
        }
    }
}

/// A Rust type as TypeScript sees it, through its ts-rs implementation.
#[derive(Clone, Copy)]
pub struct TsType {
    rust: &'static str,
    name: fn(&Config) -> String,
    imports: fn(&Config) -> Vec<Dependency>,
    export: fn(&Config) -> Result<(), ExportError>,
}

impl std::fmt::Debug for TsType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.rust)
    }
}

impl TsType {
    /// The type `T`.
    pub fn of<T: TS + 'static + ?Sized>() -> Self {
        Self {
            rust: std::any::type_name::<T>(),
            name: T::name,
            imports: imports::<T>,
            export: export::<T>,
        }
    }

    /// Its TypeScript spelling (`Array<HookFile>`, `string | null`).
    pub fn name(&self, cfg: &Config) -> String {
        (self.name)(cfg)
    }

    /// The declared types the spelling names, which a file using it imports.
    pub fn imports(&self, cfg: &Config) -> Vec<Dependency> {
        (self.imports)(cfg)
    }

    /// Writes the declarations of the types it names, and of everything
    /// they refer to, under the config's output directory.
    pub fn export(&self, cfg: &Config) -> Result<(), ExportError> {
        (self.export)(cfg)
    }
}

/// Calls `visit` for `T` and every type its spelling names (`HookFile` in
/// `Array<HookFile> | null`), as ts-rs's derive does for a field's type.
fn visit_named<T: TS + 'static + ?Sized>(visitor: &mut impl TypeVisitor) {
    visitor.visit::<T>();
    T::visit_generics(visitor);
}

fn imports<T: TS + 'static + ?Sized>(cfg: &Config) -> Vec<Dependency> {
    struct Collect<'a>(&'a Config, Vec<Dependency>);
    impl TypeVisitor for Collect<'_> {
        fn visit<U: TS + 'static + ?Sized>(&mut self) {
            self.1.extend(Dependency::from_ty::<U>(self.0));
        }
    }
    let mut collect = Collect(cfg, Vec::new());
    visit_named::<T>(&mut collect);
    collect.1
}

fn export<T: TS + 'static + ?Sized>(cfg: &Config) -> Result<(), ExportError> {
    struct Export<'a>(&'a Config, Result<(), ExportError>);
    impl TypeVisitor for Export<'_> {
        fn visit<U: TS + 'static + ?Sized>(&mut self) {
            if self.1.is_ok() && U::output_path().is_some() {
                self.1 = U::export_all(self.0);
            }
        }
    }
    let mut export = Export(cfg, Ok(()));
    visit_named::<T>(&mut export);
    export.1
}
