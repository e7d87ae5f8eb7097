// Ant Design in American English: dates written MM/DD/YYYY (the placeholder says only
// "Select date"), a time picker that keeps its pick until its own OK, a number input at
// 10, a select, and an autocomplete whose suggestions come late (a debounced lookup).
import { useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import dayjs from "dayjs";
import { App, AutoComplete, Button, ConfigProvider, DatePicker, Form, Input, InputNumber, Select, TimePicker, Typography } from "antd";
import { post, CATEGORIES, CITIES } from "./_post.js";

const DATE = "MM/DD/YYYY";
const iso = (d) => (d && d.isValid() ? d.format("YYYY-MM-DD") : "");

function CityLookup({ value, onChange }) {
  const [options, setOptions] = useState([]);
  const timer = useRef(null);
  const search = (text) => {
    clearTimeout(timer.current);
    setOptions([]);
    if (!text) return;
    timer.current = setTimeout(() => {
      const lower = text.toLowerCase();
      setOptions(CITIES.filter((c) => c.toLowerCase().startsWith(lower)).map((c) => ({ value: c })));
    }, 700);
  };
  return <AutoComplete value={value} onChange={onChange} onSearch={search} options={options} placeholder="Start typing a city" />;
}

function EventForm() {
  const [form] = Form.useForm();
  const finish = (values) => {
    post({
      name: values.name ?? "",
      date: iso(values.date),
      end: iso(values.end),
      time: values.time && values.time.isValid() ? values.time.format("HH:mm") : "",
      tickets: values.tickets ?? "",
      category: values.category ?? "",
      city: values.city ?? "",
    });
  };
  return (
    <div style={{ maxWidth: 560, margin: "32px auto" }}>
      <Typography.Title level={2}>New event</Typography.Title>
      <Form form={form} layout="horizontal" labelCol={{ span: 6 }} onFinish={finish} initialValues={{ tickets: 10 }}>
        <Form.Item label="Event name" name="name">
          <Input />
        </Form.Item>
        <Form.Item label="Event date" name="date">
          <DatePicker format={DATE} style={{ width: "100%" }} />
        </Form.Item>
        <Form.Item label="End date" name="end">
          <DatePicker format={DATE} style={{ width: "100%" }} />
        </Form.Item>
        <Form.Item label="Start time" name="time">
          <TimePicker format="HH:mm" minuteStep={5} style={{ width: "100%" }} />
        </Form.Item>
        <Form.Item label="Tickets" name="tickets">
          <InputNumber min={0} max={500} style={{ width: "100%" }} />
        </Form.Item>
        <Form.Item label="Category" name="category">
          <Select placeholder="Choose a category" options={CATEGORIES.map((c) => ({ value: c, label: c }))} />
        </Form.Item>
        <Form.Item label="City" name="city">
          <CityLookup />
        </Form.Item>
        <Form.Item wrapperCol={{ offset: 6 }}>
          <Button type="primary" htmlType="submit">
            Create event
          </Button>
        </Form.Item>
      </Form>
    </div>
  );
}

createRoot(document.getElementById("app")).render(
  <ConfigProvider>
    <App>
      <EventForm />
    </App>
  </ConfigProvider>,
);
