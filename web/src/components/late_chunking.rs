//! Late chunking, explained honestly: what it does, what it needs, and why
//! it is no different from chunk-then-embed without a model that mixes
//! context. The page runs no such model, so it shows no vectors for it.

use crate::state::model_file::LoadedModel;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LateChunkingProps {
    /// The static model loaded, if any: its numbers make the case.
    #[prop_or_default]
    pub model: Option<LoadedModel>,
    /// How many chunks the semantic split made (for the call counts).
    #[prop_or_default]
    pub chunks: Option<usize>,
}

/// With a static model loaded: why late equals naive, in its numbers.
fn with_model(m: &LoadedModel, chunks: Option<usize>) -> Html {
    let unit = if m.format == "model2vec" {
        "token"
    } else {
        "word"
    };
    let calls = chunks.map_or_else(
        || "one call per chunk".to_string(),
        |n| {
            format!(
                "{n} {} (one per chunk of the semantic split above)",
                if n == 1 { "call" } else { "calls" }
            )
        },
    );
    html! {
        <p class="note" data-testid="late-static-model" data-dims={m.dims.to_string()}
            data-vocab={m.words.to_string()}>
            <strong>{format!("With {} loaded: ", m.name)}</strong>
            {format!("this model is a table of {} {unit} vectors of {} dimensions, and a text's vector is the mean of its {unit}s' rows. ", m.words, m.dims)}
            {format!("Encoding the whole document gives each {unit} its row of the table, whatever surrounds it; pooling a chunk's span of that encoding averages exactly the rows that encoding the chunk alone averages. ")}
            {format!("So the late vector and the naive vector of every chunk are equal in all {} dimensions (difference 0): late chunking would cost 1 call over the document instead of {calls}, for the same vectors. It pays off only with a contextual model.", m.dims)}
        </p>
    }
}

/// Seed 001's late-chunking row, beside chunk-then-embed.
#[function_component]
pub fn LateChunking(props: &LateChunkingProps) -> Html {
    html! {
        <section class="card late-card" data-testid="late-chunking" aria-label="Late chunking">
            <h2>{"Late chunking: embed first, cut after"}</h2>
            <div class="late-grid">
                <div data-testid="late-naive">
                    <h3>{"Chunk, then embed (every strategy above)"}</h3>
                    <ol>
                        <li>{"Cut the document into chunks."}</li>
                        <li>{"Embed each chunk on its own: one call per chunk."}</li>
                        <li>{"A chunk that says \"it\" or \"the policy\" is embedded without the sentence that said what it is."}</li>
                    </ol>
                </div>
                <div data-testid="late-late">
                    <h3>{"Late chunking"}</h3>
                    <ol>
                        <li>{"Run a long-context embedding model over the whole document once (e.g. up to 8k tokens): every token's vector is computed with attention over all the others."}</li>
                        <li>{"Cut with any strategy above, then average the token vectors inside each chunk's span."}</li>
                        <li>{"Each chunk's vector carries context from the rest of the document: definitions made pages earlier still count."}</li>
                    </ol>
                </div>
            </div>
            <p class="note">
                <strong>{"What it needs: "}</strong>
                {"a model that gives token vectors and reads the whole document (a long-context, mean-pooling embedding model), and the tokens' offsets to pool by span. It changes the vectors, not the chunks."}
            </p>
            <p class="note" data-testid="late-static">
                <strong>{"Why late equals naive for a static model: "}</strong>
                {"a static model (word vectors such as GloVe, or model2vec) gives each token the same vector wherever it appears; no attention mixes in its neighbours. Pooling a chunk's tokens out of the whole document's encoding then averages exactly the vectors that embedding the chunk alone averages, so the two vectors are equal. Late chunking only helps with a contextual model, which this page does not have: it does not pretend to run one."}
            </p>
            if let Some(m) = &props.model {
                {with_model(m, props.chunks)}
            }
        </section>
    }
}
