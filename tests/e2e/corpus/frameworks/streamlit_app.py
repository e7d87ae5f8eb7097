"""The trip request as a Streamlit app (React and Base Web over a websocket): every
widget kind in one st.form, captioned by the widgets' own labels."""

from __future__ import annotations

import streamlit as st
import trip
from trip import CABINS, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, record, yes_no

C = trip.CAPTIONS

st.set_page_config(page_title="Trip request")
if st.session_state.get("sent"):
    st.header("Request sent")
    st.write("We have your trip request.")
    st.stop()

st.header("Trip request")
with st.form("trip"):
    name = st.text_input(C["name"])
    travellers = st.number_input(C["travellers"], min_value=1, max_value=9, value=1, step=1)
    budget = st.slider(C["budget"], min_value=50, max_value=500, value=100, step=10)
    depart = st.date_input(C["depart"], value=None, format="DD/MM/YYYY")
    time = st.time_input(C["time"], value=None, step=900)
    cabin = st.selectbox(C["cabin"], CABINS, index=None, placeholder="Pick one")
    city = st.selectbox(C["city"], CITIES, index=None, placeholder="Search a city")
    interests = st.multiselect(C["interests"], INTERESTS, placeholder="Pick any")
    meal = st.radio(C["meal"], MEALS, index=None, horizontal=True)
    insurance = st.checkbox(C["insurance"])
    newsletter = st.toggle(C["newsletter"])
    seat = st.segmented_control(C["seat"], SEATS, default="Window")
    st.write(C["extras"])
    extras = {x: st.checkbox(x) for x in EXTRAS}
    if st.form_submit_button("Send request"):
        record(
            {
                "name": name,
                "travellers": travellers,
                "budget": budget,
                "depart": depart.isoformat() if depart else "",
                "time": time.strftime("%H:%M") if time else "",
                "cabin": cabin,
                "city": city,
                "interests": ",".join(interests),
                "meal": meal,
                "insurance": yes_no(insurance),
                "newsletter": yes_no(newsletter),
                "seat": seat,
                "extras": ",".join(x for x, on in extras.items() if on),
            }
        )
        st.session_state["sent"] = True
        st.rerun()
