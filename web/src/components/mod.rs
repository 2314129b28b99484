//! The page, one component per file. Each draws from the state and the engine's
//! output; none of them decides anything about where text is cut.

pub mod app;
pub mod badges;
pub mod chunk_details;
pub mod chunk_table;
pub mod code_view;
pub mod compare_stats;
pub mod comparison;
pub mod controls;
pub mod corpus;
pub mod doc_input;
pub mod document;
pub mod eval_page;
pub mod eval_questions;
pub mod help;
pub mod jump;
pub mod langchain;
pub mod large_text;
pub mod late_chunking;
pub mod legend;
pub mod library_cards;
pub mod model_file;
pub mod modes_host;
pub mod outline;
pub mod recipe;
pub mod scroll_sync;
pub mod semantic_view;
pub mod sentence_view;
pub mod separators;
pub mod share_button;
pub mod stats;
pub mod sweep_chart;
pub mod tokenizer;
pub mod tree;
