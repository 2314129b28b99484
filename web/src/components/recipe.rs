//! The recipe of LangChain's docs, under `langchain-markdown`: a switch to
//! split each section again with `RecursiveCharacterTextSplitter`, and its
//! separator list. Size, overlap, unit and trimming are the page's own.

use super::help::help;
use crate::state::{Action, RecipeList};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// The recipe's controls. A function rather than a component: it has no
/// state of its own, and a component costs the bundle Yew's machinery again.
pub fn recipe_controls(current: Option<RecipeList>, dispatch: &Callback<Action>) -> Html {
    let on_check = dispatch.reform(move |e: Event| {
        let on = e.target_unchecked_into::<HtmlInputElement>().checked();
        Action::SetThenRecursive(on.then_some(current.unwrap_or(RecipeList::Default)))
    });
    let on_list = dispatch.reform(|e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        Action::SetThenRecursive(Some(
            RecipeList::parse(&value).unwrap_or(RecipeList::Default),
        ))
    });
    html! {
        <div class="field check wide recipe">
            <label>
                <input type="checkbox" data-testid="then-recursive-checkbox" checked={current.is_some()} onchange={on_check} />
                {" Then split each section with "}
                <code>{"RecursiveCharacterTextSplitter"}</code>
            </label>
            {help("The recipe of LangChain's docs: MarkdownHeaderTextSplitter has no size limit, so each section it gives is split again by RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap).split_documents(...), and every piece keeps its section's headers as metadata. The tree shows the sections, then the recursive levels inside each.")}
            if let Some(list) = current {
                <label class="recipe-list">
                    {"separators "}
                    <select data-testid="then-separators-select" onchange={on_list}>
                        <option value="default" selected={list == RecipeList::Default}>{"LangChain's default"}</option>
                        <option value="markdown" selected={list == RecipeList::Markdown}>{"Language.MARKDOWN"}</option>
                    </select>
                </label>
            }
        </div>
    }
}
